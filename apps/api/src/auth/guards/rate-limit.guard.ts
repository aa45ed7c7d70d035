import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
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
    const http = context.switchToHttp();
    const principal = principalOf(http.getRequest<Request>());
    if (principal.kind !== 'api_key') return true;
    const verdict = this.budget.admit(principal.organisationId);
    if (verdict === undefined) return true;
    const headers = {
      'ratelimit-policy': `${verdict.limit};w=${verdict.windowSeconds}`,
      'ratelimit-limit': String(verdict.limit),
      'ratelimit-remaining': String(verdict.remaining),
      'ratelimit-reset': String(verdict.resetSeconds),
    };
    if (!verdict.allowed) throw rateLimited(verdict.resetSeconds * 1000, headers);
    const res = http.getResponse<Response>();
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return true;
  }
}
