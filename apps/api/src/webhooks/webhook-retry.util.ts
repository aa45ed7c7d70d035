/**
 * The wait before the next attempt after `failedAttempts` failures (1 = after the first): the
 * schedule's entry (its last one once past its end), spread by ±20 % so that deliveries which
 * failed together (an endpoint was down) do not all come back in the same instant. The spread is
 * narrow enough that the waits still grow as the schedule does.
 */
export function retryDelayMs(
  schedule: readonly number[],
  failedAttempts: number,
  random: () => number = Math.random,
): number {
  if (schedule.length === 0) return 0;
  const base = schedule[Math.min(Math.max(failedAttempts, 1), schedule.length) - 1];
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Where an attempt on the retry schedule leaves its row (webhook deliveries, resumeUrls): sent
 * (`succeeded`), due again `delayMs` later (`pending`) while attempts remain, else `failed`.
 */
export function attemptOutcome(
  ok: boolean,
  attempt: number,
  maxAttempts: number,
  schedule: readonly number[],
): { status: 'succeeded' | 'pending' | 'failed'; delayMs: number } {
  if (ok) return { status: 'succeeded', delayMs: 0 };
  if (attempt < maxAttempts) return { status: 'pending', delayMs: retryDelayMs(schedule, attempt) };
  return { status: 'failed', delayMs: 0 };
}
