import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { type HttpRequest, type HttpResponse, nodeResponse } from '../../http/platform';
import { ApiKeyBudgetService } from '../../rate-limits/api-key-budget.service';
import { rateLimited } from '../../rate-limits/rate-limited.error';
import { principalOf } from '../principal';

/**
 * After the caller is classified and before the plan guard: a request made with an API key
 * spends one of its organisation's budget (SPEC §8b). Every such response carries the
 * `RateLimit-*` fields (IETF draft 6); past the budget, 429 RATE_LIMITED with `Retry-After`.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly budget: ApiKeyBudgetService) {}

  canActivate(context: ExecutionContext): boolean {
    const principal = principalOf(context.getArgByIndex<HttpRequest>(0));
    if (principal.kind !== 'api_key') return true;
    const verdict = this.budget.admit(principal.organisationId);
    if (verdict === undefined) return true;
    const policy = `${verdict.limit};w=${verdict.windowSeconds}`;
    if (!verdict.allowed) {
      throw rateLimited(verdict.resetSeconds * 1000, {
        'ratelimit-policy': policy,
        'ratelimit-limit': String(verdict.limit),
        'ratelimit-remaining': String(verdict.remaining),
        'ratelimit-reset': String(verdict.resetSeconds),
      });
    }
    // On every admitted key request: set one by one, without an object to iterate.
    const res = nodeResponse(context.getArgByIndex<HttpResponse>(1));
    res.setHeader('ratelimit-policy', policy);
    res.setHeader('ratelimit-limit', String(verdict.limit));
    res.setHeader('ratelimit-remaining', String(verdict.remaining));
    res.setHeader('ratelimit-reset', String(verdict.resetSeconds));
    return true;
  }
}
