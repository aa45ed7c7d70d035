import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../../http/api-error';
import { isHumanOnly, ROUTE_ACCESS, RouteAccess } from '../decorators/route-access.decorator';

/** Reads a route's declaration; `undefined` when the route has none. */
export function routeAccessOf(reflector: Reflector, context: ExecutionContext): RouteAccess | undefined {
  return reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
}

/**
 * First guard. Refuses a route that declares no access (deny by default), and a request that
 * carries `x-api-key` to a human-only route — valid key or not, before anything else (SPEC §4).
 */
@Injectable()
export class RouteAccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, context);
    if (access === undefined) {
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no route access`);
    }
    const req = context.switchToHttp().getRequest<Request>();
    if (isHumanOnly(access) && req.headers['x-api-key'] !== undefined) {
      throw ApiError.of('HUMANS_ONLY');
    }
    return true;
  }
}
