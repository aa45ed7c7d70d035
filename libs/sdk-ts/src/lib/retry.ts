// When and how long to wait before retrying a request (SPEC: 408/409/429/5xx and connection
// errors; exponential backoff with jitter; the server's Retry-After wins when it is sane).

export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
/** A server-suggested wait longer than this is ignored in favour of the backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Whether a response with this status (and headers) is worth retrying. */
export function shouldRetryResponse(status: number, headers: Headers): boolean {
  // The service may say so explicitly, overriding the status rule.
  const explicit = headers.get('x-should-retry');
  if (explicit === 'true') return true;
  if (explicit === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Milliseconds to wait before retry number `retriesTaken + 1`: `retry-after-ms`, else
 * `Retry-After` (seconds or an HTTP date), else min(0.5 s × 2^n, 8 s) less up to 25 % jitter.
 */
export function retryDelayMs(
  retriesTaken: number,
  headers?: Headers | null,
  now: number = Date.now(),
): number {
  const suggested = retryAfterMs(headers, now);
  if (suggested !== undefined && suggested >= 0 && suggested <= MAX_RETRY_AFTER_MS)
    return suggested;
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retriesTaken, MAX_RETRY_DELAY_MS);
  const jitter = 1 - Math.random() * 0.25;
  return base * jitter;
}

/** The server's suggested wait in milliseconds, if it gave a readable one. */
export function retryAfterMs(
  headers: Headers | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value)) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - now;
}
