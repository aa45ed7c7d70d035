const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);

const CONNECTION_ERROR_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|connection to the server was lost/i;

/** True when an error means "the database cannot be reached", which answers 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  // Duck-typed rather than `instanceof Error`: driver errors may come from another realm.
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) {
      return true;
    }
    if (typeof message === 'string' && CONNECTION_ERROR_TEXT.test(message)) return true;
    e = (e as { driverError?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
