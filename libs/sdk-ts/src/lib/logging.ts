// Opt-in logging: `logLevel` (or the INTERLOCK_LOG environment variable) `debug` logs every request
// and response, `info` and `warn` the retries, `error` nothing yet, `off` (default) nothing. Secrets
// never reach a log line: the key, cookies and authorization headers are redacted.

export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Where log lines go (console by default): any object with these methods, e.g. a pino logger. */
export interface Logger {
  error(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

const LEVELS: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };
const SECRET_HEADERS = new Set([
  'x-api-key',
  'cookie',
  'set-cookie',
  'authorization',
  'proxy-authorization',
]);

export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  return level !== undefined && level in LEVELS ? (level as LogLevel) : undefined;
}

export function enabled(level: LogLevel, at: Exclude<LogLevel, 'off'>): boolean {
  return LEVELS[level] >= LEVELS[at];
}

/** The headers with every secret replaced by `***`. */
export function redactHeaders(headers: Record<string, string> | Headers): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: Iterable<[string, string]> =
    headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries)
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '***' : value;
  return out;
}

export const consoleLogger: Logger = {
  error: (message, ...rest) => console.error(message, ...rest),
  warn: (message, ...rest) => console.warn(message, ...rest),
  info: (message, ...rest) => console.info(message, ...rest),
  debug: (message, ...rest) => console.debug(message, ...rest),
};
