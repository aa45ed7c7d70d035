import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { missingPermissionMessage } from '@interlock/domain';
import { ApiError } from '../../http/api-error';
import { principalOf } from '../principal';
import { routeAccessOf } from './route-access.guard';

/** Last guard: a member route that names a permission answers 403 to a member without it. */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, context);
    if (access?.principal !== 'member' || access.permission === undefined) return true;
    const principal = principalOf(context.switchToHttp().getRequest<Request>());
    if (principal.kind !== 'member') return false;
    if (!principal.permissions.has(access.permission)) {
      throw new ApiError('MISSING_PERMISSION', missingPermissionMessage(access.permission));
    }
    return true;
  }
}
