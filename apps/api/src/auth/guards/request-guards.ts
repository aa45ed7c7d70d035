import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RequestHygieneGuard } from '../../http/request-hygiene.guard';
import { AuthenticationGuard } from './authentication.guard';
import { MemberWriteBudgetGuard } from './member-write-budget.guard';
import { PermissionGuard } from './permission.guard';
import { PlanGuard } from './plan.guard';
import { RateLimitGuard } from './rate-limit.guard';
import { RouteAccessGuard } from './route-access.guard';

/**
 * The one global guard: the six checks in SPEC §4's order — route declared and humans-only →
 * caller classified (key, or session cookie and organisation) → a key's request budget (§8b) →
 * plan → permission → the request's hygiene (415, JSON Postgres cannot store, a body where none
 * is taken) → a person's write budget (the one check that may wait on the database). Deny by default: a check that says no stops the rest. One guard for Nest to run
 * rather than six (each with its own await), synchronous where nothing is looked up (issue 14).
 * The checks read the request and response as `context.getArgByIndex(0)` and `(1)`: Nest's
 * `switchToHttp()` makes three closures on every call.
 */
@Injectable()
export class RequestGuards implements CanActivate {
  constructor(
    private readonly routeAccess: RouteAccessGuard,
    private readonly authentication: AuthenticationGuard,
    private readonly rateLimit: RateLimitGuard,
    private readonly plan: PlanGuard,
    private readonly permission: PermissionGuard,
    private readonly hygiene: RequestHygieneGuard,
    private readonly memberWrites: MemberWriteBudgetGuard,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (!this.routeAccess.canActivate(context)) return false;
    const authenticated = this.authentication.canActivate(context);
    return typeof authenticated === 'boolean'
      ? authenticated && this.afterAuthentication(context)
      : authenticated.then((ok) => ok && this.afterAuthentication(context));
  }

  private afterAuthentication(context: ExecutionContext): boolean | Promise<boolean> {
    return (
      this.rateLimit.canActivate(context) &&
      this.plan.canActivate(context) &&
      this.permission.canActivate(context) &&
      this.hygiene.canActivate(context) &&
      // A person's write spends their budget last: a request refused above spends nothing.
      this.memberWrites.check(context)
    );
  }
}
