import { setAnswerHeader } from '../http/answer-headers';
import type { HttpResponse } from '../http/platform';
import type { ApiKeyBudgetService } from './api-key-budget.service';
import type { BudgetVerdict } from './api-key-budget';
import { rateLimited } from './rate-limited.error';

/** Sets the `RateLimit-*` fields (IETF draft 6) of an admitted key request. */
export function setBudgetHeaders(res: HttpResponse, verdict: BudgetVerdict | undefined): void {
  if (verdict === undefined) return;
  // Set one by one, without an object to iterate (the guard runs on every key request); on
  // Fastify's reply while it is to answer (`setAnswerHeader`).
  setAnswerHeader(res, 'ratelimit-policy', `${verdict.limit};w=${verdict.windowSeconds}`);
  setAnswerHeader(res, 'ratelimit-limit', String(verdict.limit));
  setAnswerHeader(res, 'ratelimit-remaining', String(verdict.remaining));
  setAnswerHeader(res, 'ratelimit-reset', String(verdict.resetSeconds));
}

/**
 * Spends one of the organisation's budget for this request and sets its `RateLimit-*` fields, or
 * throws 429 RATE_LIMITED with `Retry-After` (SPEC §8b). Nothing when the budget is off.
 */
export function spendOrRefuse(
  budget: ApiKeyBudgetService,
  organisationId: string,
  res: HttpResponse,
): void {
  const verdict = budget.admit(organisationId);
  if (verdict === undefined) return;
  if (!verdict.allowed) {
    throw rateLimited(verdict.resetSeconds * 1000, {
      'ratelimit-policy': `${verdict.limit};w=${verdict.windowSeconds}`,
      'ratelimit-limit': String(verdict.limit),
      'ratelimit-remaining': String(verdict.remaining),
      'ratelimit-reset': String(verdict.resetSeconds),
    });
  }
  setBudgetHeaders(res, verdict);
}
