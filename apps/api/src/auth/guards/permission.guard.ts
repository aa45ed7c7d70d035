import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from '../../http/platform';
import { DomainError, missingPermissionMessage } from '@interlock/domain';
import type { Permission } from '@interlock/domain';
import {
  describePermission,
  permissionsOf,
  PermissionRequirement,
} from '../decorators/route-access.decorator';
import { assertNever, principalOf } from '../principal';
import { routeAccessOf } from './route-access.guard';

/**
 * Last guard: a route that names a permission (or several, any one of which will do) answers 403
 * to a member without it. Keys carry
 * no permissions (SPEC §2): on a shared read they were admitted by the key path.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, context);
    if (access === undefined) return false;
    const principal = principalOf(context.getArgByIndex<HttpRequest>(0));
    switch (access.principal) {
      case 'public':
      case 'api_key':
      case 'user':
      case 'human':
        return true;
      case 'member':
        if (access.permission === undefined) return true;
        return principal.kind === 'member' && this.holds(principal.permissions, access.permission);
      case 'api_key_or_member':
        if (principal.kind === 'api_key') return true;
        return principal.kind === 'member' && this.holds(principal.permissions, access.permission);
      default:
        return assertNever(access);
    }
  }

  /** Holding any one permission of the requirement admits; the 403 names them all. */
  private holds(permissions: ReadonlySet<Permission>, required: PermissionRequirement): true {
    if (!permissionsOf(required).some((p) => permissions.has(p))) {
      throw new DomainError(
        'MISSING_PERMISSION',
        missingPermissionMessage(describePermission(required)),
      );
    }
    return true;
  }
}
