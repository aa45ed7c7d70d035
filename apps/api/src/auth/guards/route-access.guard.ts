import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from '../../http/platform';
import { DomainError } from '@interlock/domain';
import { isHumanOnly, ROUTE_ACCESS, RouteAccess } from '../decorators/route-access.decorator';

/**
 * A route's metadata under one key (the handler's, else its controller's: `getAllAndOverride`),
 * remembered per route (controller class, then handler): metadata does not change once the app
 * runs, and reading it through the Reflector costs `reflect-metadata`'s lookups on every request
 * (issue 28).
 */
export class RouteMetadata<T> {
  private readonly byClass = new WeakMap<object, WeakMap<object, { value: T | undefined }>>();

  constructor(private readonly key: string) {}

  /** The value for the context's route; `undefined` when neither declares one. */
  of(reflector: Reflector, context: ExecutionContext): T | undefined {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = this.byClass.get(controller);
    if (byHandler === undefined) this.byClass.set(controller, (byHandler = new WeakMap()));
    let known = byHandler.get(handler);
    if (known === undefined) {
      known = {
        value: reflector.getAllAndOverride<T | undefined>(this.key, [handler, controller]),
      };
      byHandler.set(handler, known);
    }
    return known.value;
  }
}

const declarations = new RouteMetadata<RouteAccess>(ROUTE_ACCESS);

/**
 * Reads a route's declaration; `undefined` when the route has none. Each of the guards asks, so
 * it is read from the metadata once per route and remembered.
 */
export function routeAccessOf(
  reflector: Reflector,
  context: ExecutionContext,
): RouteAccess | undefined {
  return declarations.of(reflector, context);
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
      throw new Error(
        `${context.getClass().name}.${context.getHandler().name} declares no route access`,
      );
    }
    const req = context.getArgByIndex<HttpRequest>(0);
    if (isHumanOnly(access) && req.headers['x-api-key'] !== undefined) {
      throw DomainError.of('HUMANS_ONLY');
    }
    return true;
  }
}
