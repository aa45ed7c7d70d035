import { MAX_RETRY_DELAY_MS, retryAfterMs, retryDelayMs, shouldRetryResponse } from './retry';

const h = (init: Record<string, string>) => new Headers(init);

describe('retry policy', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 504])
      expect(shouldRetryResponse(status, h({}))).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 413, 422])
      expect(shouldRetryResponse(status, h({}))).toBe(false);
  });

  it('lets x-should-retry override the status rule', () => {
    expect(shouldRetryResponse(400, h({ 'x-should-retry': 'true' }))).toBe(true);
    expect(shouldRetryResponse(503, h({ 'x-should-retry': 'false' }))).toBe(false);
  });

  it('reads Retry-After as seconds or as an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after': 'Sun, 01 Jun 2025 12:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(h({ 'retry-after': '3', 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(h({}), now)).toBeUndefined();
  });

  it('waits what the server asked when it is within a minute', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(retryDelayMs(0, h({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryDelayMs(3, h({ 'retry-after': 'Sun, 01 Jun 2025 12:00:10 GMT' }), now)).toBe(
      10_000,
    );
  });

  it('falls back to exponential backoff with jitter, capped at 8 s', () => {
    for (let i = 0; i < 50; i++) {
      const first = retryDelayMs(0, null);
      expect(first).toBeGreaterThan(375 - 1e-9);
      expect(first).toBeLessThanOrEqual(500);
      const third = retryDelayMs(2, null);
      expect(third).toBeGreaterThan(1500 - 1e-9);
      expect(third).toBeLessThanOrEqual(2000);
      expect(retryDelayMs(10, null)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
      expect(retryDelayMs(10, null)).toBeGreaterThan(MAX_RETRY_DELAY_MS * 0.75 - 1e-9);
    }
    // An absurd or past Retry-After is ignored in favour of the backoff.
    expect(retryDelayMs(0, h({ 'retry-after': '3600' }))).toBeLessThanOrEqual(500);
    expect(retryDelayMs(0, h({ 'retry-after': '-5' }))).toBeGreaterThan(0);
  });
});
