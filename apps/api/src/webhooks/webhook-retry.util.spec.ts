import { attemptOutcome, retryDelayMs } from './webhook-retry.util';

describe('retryDelayMs', () => {
  const schedule = [5_000, 300_000, 1_800_000];

  it('follows the schedule, within ±20 %', () => {
    expect(retryDelayMs(schedule, 1, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(schedule, 2, () => 0)).toBe(240_000);
    expect(retryDelayMs(schedule, 3, () => 1)).toBe(2_160_000);
  });

  it('keeps the last wait past the end of the schedule', () => {
    expect(retryDelayMs(schedule, 9, () => 0.5)).toBe(1_800_000);
  });

  it('keeps the waits growing whatever the jitter draws', () => {
    for (let i = 0; i < 1000; i++) {
      const first = retryDelayMs(schedule, 1);
      const second = retryDelayMs(schedule, 2);
      expect(first).toBeGreaterThanOrEqual(4_000);
      expect(first).toBeLessThanOrEqual(6_000);
      expect(second).toBeGreaterThan(first);
    }
  });
});

describe('attemptOutcome', () => {
  const schedule = [5_000, 300_000];

  it('ends a sent attempt, retries a failed one on the schedule while attempts remain, then fails it', () => {
    expect(attemptOutcome(true, 3, 3, schedule)).toEqual({ status: 'succeeded', delayMs: 0 });
    const retry = attemptOutcome(false, 2, 3, schedule);
    expect(retry.status).toBe('pending');
    expect(retry.delayMs).toBeGreaterThanOrEqual(240_000);
    expect(retry.delayMs).toBeLessThanOrEqual(360_000);
    expect(attemptOutcome(false, 3, 3, schedule)).toEqual({ status: 'failed', delayMs: 0 });
  });
});
