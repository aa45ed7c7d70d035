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
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end on the pool|Connection is not established|connection to the server was lost/i;

/**
 * TypeORM's errors for a connection that went away under a query runner: when the driver
 * reports a lost connection, the runner is released at once, and the transaction's next query
 * (or its rollback) throws these instead of the driver's error.
 */
const RELEASED_CONNECTION_ERRORS = new Set([
  'QueryRunnerProviderAlreadyReleasedError',
  'QueryRunnerAlreadyReleasedError',
  'ConnectionIsNotSetError',
  'CannotExecuteNotConnectedError',
]);

/** True when an error means "the database cannot be reached", which answers 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  // Duck-typed rather than `instanceof Error`: driver errors may come from another realm.
  for (
    let e: unknown = error, depth = 0;
    typeof e === 'object' && e !== null && depth < 4;
    depth++
  ) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof name === 'string' && RELEASED_CONNECTION_ERRORS.has(name)) return true;
    if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) {
      return true;
    }
    if (typeof message === 'string' && CONNECTION_ERROR_TEXT.test(message)) return true;
    e = (e as { driverError?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
