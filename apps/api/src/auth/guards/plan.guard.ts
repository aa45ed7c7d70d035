import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from '../../http/platform';
import { DomainError } from '@interlock/domain';
import { assertNever, principalOf } from '../principal';
import { routeAccessOf } from './route-access.guard';

/**
 * Third guard: a route that requires a plan of keys answers 402 PLAN_REQUIRED to a key of an
 * organisation without it. On a shared read the plan binds the key path only: members pass.
 */
@Injectable()
export class PlanGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, context);
    if (access === undefined) return false;
    switch (access.principal) {
      case 'public':
      case 'member':
      case 'user':
      case 'human':
        return true;
      case 'api_key':
      case 'api_key_or_member': {
        if (access.plan === undefined) return true;
        const principal = principalOf(context.getArgByIndex<HttpRequest>(0));
        if (principal.kind === 'member' && access.principal === 'api_key_or_member') return true;
        if (principal.kind !== 'api_key') return false;
        if (principal.plan !== access.plan) throw DomainError.of('PLAN_REQUIRED');
        return true;
      }
      default:
        return assertNever(access);
    }
  }
}
