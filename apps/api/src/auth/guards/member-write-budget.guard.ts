import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from '../../http/platform';
import { COSTLY_WRITE, type CostlyWriteKind } from '../../rate-limits/costly-write.decorator';
import { MemberWriteBudget } from '../../rate-limits/member-write-budget.service';
import { principalOf } from '../principal';
import { routeAccessOf } from './route-access.guard';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After the permission check (a refused request spends nothing): a write by a signed-in person
 * — a member acting for an organisation, or a user on an account route — spends their write
 * budget, and a `@CostlyWrite` route its kind's too (issue 34, item 5). Keys have their own
 * budget (RateLimitGuard); sign-in, sign-up and accepting an invitation are anonymous and
 * throttled by AuthAttemptLimiter.
 */
@Injectable()
export class MemberWriteBudgetGuard {
  constructor(
    private readonly reflector: Reflector,
    private readonly budget: MemberWriteBudget,
  ) {}

  /** `true` at once for everything but a person's write; otherwise the budget's verdict. */
  check(context: ExecutionContext): true | Promise<boolean> {
    const req = context.getArgByIndex<HttpRequest>(0);
    if (SAFE_METHODS.has(req.method)) return true;
    // Public and human routes (sign-in, sign-up, sign-out, accepting an invitation) have limits of their own.
    const access = routeAccessOf(this.reflector, context)?.principal;
    if (access !== 'member' && access !== 'user' && access !== 'api_key_or_member') return true;
    const principal = principalOf(req);
    let userId: string;
    if (principal.kind === 'member') userId = principal.memberId;
    else if (principal.kind === 'user') userId = principal.userId;
    else return true;
    const costly = this.reflector.get<CostlyWriteKind | undefined>(
      COSTLY_WRITE,
      context.getHandler(),
    );
    return this.budget.spend(userId, costly).then(() => true);
  }
}
