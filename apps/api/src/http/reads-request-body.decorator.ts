import { SetMetadata } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Reflector } from '@nestjs/core';

const READS_REQUEST_BODY = 'interlock:reads-request-body';

/**
 * For a handler (or controller) that reads the request body itself rather than through
 * `@Body()` — the MCP transport takes the parsed JSON-RPC message from the request. Without it,
 * a handler with no `@Body()` parameter takes no body, and a body sent to it answers 400.
 */
export const ReadsRequestBody = () => SetMetadata(READS_REQUEST_BODY, true);

const BODY_PARAMS = new Set<number>([RouteParamtypes.BODY, RouteParamtypes.RAW_BODY]);
const takesBodyCache = new WeakMap<object, boolean>();

/** Whether the handler of `context` takes a body: a `@Body()` (or raw body) parameter, or `@ReadsRequestBody()`. */
export function takesBody(reflector: Reflector, context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let known = takesBodyCache.get(handler);
  if (known === undefined) {
    // Nest records each route parameter under `<paramtype>:<index>` on the controller class.
    const params = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
      {}) as Record<string, unknown>;
    known =
      Object.keys(params).some((key) => BODY_PARAMS.has(Number(key.split(':')[0]))) ||
      reflector.getAllAndOverride<boolean | undefined>(READS_REQUEST_BODY, [
        handler,
        context.getClass(),
      ]) === true;
    takesBodyCache.set(handler, known);
  }
  return known;
}
