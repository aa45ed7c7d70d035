import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest, HttpResponse } from '../../http/platform';
import { ApiKeyBudgetService } from '../../rate-limits/api-key-budget.service';
import { spendOrRefuse } from '../../rate-limits/budget-answer';
import { asksToWait, deferSpending, HELD_WAIT_ROUTE } from '../../rate-limits/held-wait.decorator';
import { principalOf } from '../principal';

/**
 * After the caller is classified and before the plan guard: a request made with an API key
 * spends one of its organisation's budget (SPEC §8b). Every such response carries the
 * `RateLimit-*` fields (IETF draft 6); past the budget, 429 RATE_LIMITED with `Retry-After`.
 * A wait (`@HeldWaitRoute` with `waitSeconds` ≥ 1, SPEC §8e) is left to its handler, which
 * spends only when it does not hold the request.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /**
   * Each handler's `@HeldWaitRoute` bound (none for most), read from its metadata once: it does
   * not change while the app runs, and every key request asks (issue 28).
   */
  private readonly maxWaits = new WeakMap<object, { maxWait: number | undefined }>();

  constructor(
    private readonly budget: ApiKeyBudgetService,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.getArgByIndex<HttpRequest>(0);
    const principal = principalOf(req);
    if (principal.kind !== 'api_key') return true;
    const maxWait = this.maxWaitOf(context.getHandler());
    if (maxWait !== undefined && asksToWait(req.query, maxWait)) {
      deferSpending(req);
      return true;
    }
    spendOrRefuse(this.budget, principal.organisationId, context.getArgByIndex<HttpResponse>(1));
    return true;
  }

  private maxWaitOf(handler: ReturnType<ExecutionContext['getHandler']>): number | undefined {
    let known = this.maxWaits.get(handler);
    if (known === undefined) {
      known = { maxWait: this.reflector.get<number | undefined>(HELD_WAIT_ROUTE, handler) };
      this.maxWaits.set(handler, known);
    }
    return known.maxWait;
  }
}
