import type { MemberCall } from '../auth/caller';

/** How long an "Always allow this" rule lasts by default, and at most (days). */
export const ALWAYS_ALLOW_DEFAULT_DAYS = 30;
export const ALWAYS_ALLOW_MAX_DAYS = 365;

/**
 * "Always allow this" (SPEC §8d): a narrow enforce rule approving `actionName` from the key that
 * opened `interruptId`, with these argument conditions, for `expiresInDays` (default 30): the
 * input of `AlwaysAllowService.create`. The REST body (`AlwaysAllowDto`) stays at the HTTP edge.
 */
export interface AlwaysAllowCommand extends MemberCall {
  interruptId: string;
  actionName: string;
  /** Conditions on the arguments (RuleArgPredicate, checked by the service); absent: each argument equal to its value here. */
  args?: unknown[];
  expiresInDays?: number;
}
