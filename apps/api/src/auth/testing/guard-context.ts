import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from '../../http/platform';
import {
  ORGANISATION_IN_QUERY,
  ROUTE_ACCESS,
  RouteAccess,
} from '../decorators/route-access.decorator';
import { Principal, setPrincipal } from '../principal';

/** A handler carrying `access` (or nothing), and an ExecutionContext for a fake request to it. */
export function guardContext(
  access: RouteAccess | undefined,
  request: {
    method?: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    principal?: Principal;
    organisationInQuery?: boolean;
  } = {},
): { context: ExecutionContext; req: HttpRequest; reflector: Reflector } {
  class ProbeController {
    handler(): void {
      // a route for the guard to inspect
    }
  }
  if (access !== undefined)
    Reflect.defineMetadata(ROUTE_ACCESS, access, ProbeController.prototype.handler);
  if (request.organisationInQuery)
    Reflect.defineMetadata(ORGANISATION_IN_QUERY, true, ProbeController.prototype.handler);
  const req = {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    query: request.query ?? {},
  } as unknown as HttpRequest;
  if (request.principal) setPrincipal(req, request.principal);
  const response = {};
  const context = {
    getHandler: () => ProbeController.prototype.handler,
    getClass: () => ProbeController,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => response }),
    getArgByIndex: (index: number) => [req, response][index],
  } as unknown as ExecutionContext;
  return { context, req, reflector: new Reflector() };
}
