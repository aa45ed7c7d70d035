import { SetMetadata } from '@nestjs/common';

export const HELD_WAIT_ROUTE = 'interlock:held-wait-route';

/**
 * A read that may hold its request until something changes (`?waitSeconds=N`, 1 ≤ N ≤
 * `maxSeconds`; SPEC §8e): a key's wait does not spend its organisation's request budget in the
 * guard. The handler spends it when it answers at once, and a wait it holds spends nothing (or
 * one, at its end, when it was short): waiting must not cost requests.
 */
export const HeldWaitRoute = (maxSeconds: number) => SetMetadata(HELD_WAIT_ROUTE, maxSeconds);

/**
 * Requests whose spending the guard left to their handler (a key's wait), from the guard to the
 * handler only: the handler takes its request out (takeDeferredSpending). Kept for the whole hold,
 * 10,000 held requests were a weak table that every insert grew and rehashed and every GC
 * traced as ephemerons (issue 37 §6: 2.2 % of a held wait's CPU in the insert alone).
 */
const deferred = new WeakSet<object>();

/** `waitSeconds` is one integer from 1 to `max` in decimal: anything else is no wait (and a 400 later, if invalid). */
export function asksToWait(query: unknown, max: number): boolean {
  const value = (query as { waitSeconds?: unknown } | undefined)?.waitSeconds;
  if (typeof value !== 'string' || !/^[0-9]{1,6}$/.test(value)) return false;
  const seconds = Number(value);
  return seconds >= 1 && seconds <= max;
}

/** The guard leaves this request's spending to its handler. */
export function deferSpending(req: object): void {
  deferred.add(req);
}

/**
 * Whether the guard left this request's spending to its handler (a key's wait): then the handler
 * must spend. Asked once, by the handler: the answer is forgotten as it is given.
 */
export function takeDeferredSpending(req: object): boolean {
  return deferred.delete(req);
}
