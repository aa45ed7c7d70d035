import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ERROR_MESSAGES } from '@interlock/domain';
import { sendError } from './error-response.util';
import { requestIdOf } from './request-id.middleware';

/**
 * A method the API does not serve on a path it does serve answers 405 with `Allow` (RFC 9110),
 * before authentication, like any routing answer; a path it does not serve stays a 404. `HEAD`
 * goes wherever `GET` does. `routes` are the app's own (`declaredRoutes`), `:param` segments
 * matching any one segment.
 */
export function methodNotAllowedMiddleware(routes: readonly { method: string; path: string }[]): RequestHandler {
  const byPattern = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const route of routes) {
    const key = route.path;
    const entry = byPattern.get(key) ?? {
      pattern: new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:\w+/g, '/[^/]+')}/?$`, 'i'),
      methods: new Set<string>(),
    };
    entry.methods.add(route.method.toUpperCase());
    byPattern.set(key, entry);
  }
  const patterns = [...byPattern.values()];
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = new Set<string>();
    for (const { pattern, methods } of patterns) {
      if (pattern.test(req.path)) for (const m of methods) allowed.add(m);
    }
    const method = req.method.toUpperCase();
    if (allowed.size === 0 || allowed.has(method) || (method === 'HEAD' && allowed.has('GET'))) return next();
    req.resume(); // a body sent with the wrong method is not read
    res.setHeader('allow', [...allowed].sort().join(', '));
    sendError(res, 405, 'METHOD_NOT_ALLOWED', ERROR_MESSAGES.METHOD_NOT_ALLOWED, requestIdOf(req));
  };
}
