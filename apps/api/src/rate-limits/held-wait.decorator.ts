import { SetMetadata } from '@nestjs/common';

export const HELD_WAIT_ROUTE = 'interlock:held-wait-route';

/**
 * A read that may hold its request until something changes (`?waitSeconds=N`, 1 ≤ N ≤
 * `maxSeconds`; SPEC §8e): a key's wait does not spend its organisation's request budget in the
 * guard. The handler spends it when it answers at once, and a wait it holds spends nothing (or
 * one, at its end, when it was short): waiting must not cost requests.
 */
export const HeldWaitRoute = (maxSeconds: number) => SetMetadata(HELD_WAIT_ROUTE, maxSeconds);

/** Requests whose spending the guard left to their handler (a key's wait). */
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

/** Whether the guard left this request's spending to its handler (a key's wait): then the handler must spend. */
export function spendingDeferred(req: object): boolean {
  return deferred.has(req);
}
