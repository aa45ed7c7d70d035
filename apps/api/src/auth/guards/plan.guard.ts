import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../../http/api-error';
import { principalOf } from '../principal';
import { routeAccessOf } from './route-access.guard';

/** Third guard: a machine route that requires a plan answers 402 PLAN_REQUIRED without it. */
@Injectable()
export class PlanGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, context);
    if (access?.principal !== 'api_key' || access.plan === undefined) return true;
    const principal = principalOf(context.switchToHttp().getRequest<Request>());
    if (principal.kind !== 'api_key') return false;
    if (principal.plan !== access.plan) throw ApiError.of('PLAN_REQUIRED');
    return true;
  }
}
