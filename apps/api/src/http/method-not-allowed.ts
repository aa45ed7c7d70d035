import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { HTTPMethod } from 'find-my-way';
import { ERROR_MESSAGES } from '@interlock/domain';
import { setAnswerHeader } from './answer-headers';
import { sendError } from './error-response.util';
import { pathOf } from './platform';
import { requestIdOf } from './request-state';

/** A route's pattern as segments: a literal (lower case), or `null` for a parameter. */
type Segments = readonly (string | null)[];

interface Declared {
  readonly method: string;
  readonly path: string;
}

/** What the router keeps per route: its pattern's segments, and whether it may be shadowed. */
interface Store {
  readonly segments: Segments;
  readonly shadowed: boolean;
}

function segmentsOf(path: string): Segments {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => (s.startsWith(':') ? null : s.toLowerCase()));
}

/**
 * Which of two patterns that match the same path is the more specific: at the first segment
 * where one is a literal and the other a parameter, the literal (the router's own precedence:
 * `/api/me/sessions/revoke-others` before `/api/me/sessions/:id`). Positive when `a` is.
 */
function specificity(a: Segments, b: Segments): number {
  for (let i = 0; i < a.length; i++) {
    if ((a[i] === null) !== (b[i] === null)) return a[i] === null ? -1 : 1;
  }
  return 0;
}

/** Whether some path matches both patterns: as many segments, and their literals agree. */
function overlap(a: Segments, b: Segments): boolean {
  return a.length === b.length && a.every((s, i) => s === null || b[i] === null || s === b[i]);
}

/**
 * How the service's paths match, on both adapters: Express's matching — case-insensitive, one
 * trailing slash allowed, ids of any length (the pipes answer a malformed one). The Fastify
 * adapter's router takes these (app.factory.ts), and so does RouteMethods' copy of it.
 */
export const ROUTER_OPTIONS = {
  caseSensitive: false,
  ignoreTrailingSlash: true,
  maxParamLength: 2048,
} as const;

/**
 * The methods the service serves on each path, looked up with Fastify's own router
 * (`find-my-way`, with the options the Fastify adapter gives it: ROUTER_OPTIONS), so both
 * adapters answer 405 for exactly the paths Fastify routes.
 *
 * A path belongs to its most specific routes: where a literal route and a parameter route of
 * another method both match it (`POST /api/me/sessions/revoke-others` and
 * `DELETE /api/me/sessions/:id`), the path is the literal route's — `Allow: POST`, and
 * `DELETE /api/me/sessions/revoke-others` is a 405, not a session id the router would hand on.
 */
export class RouteMethods {
  private readonly router = FindMyWay({ ...ROUTER_OPTIONS });
  private readonly methods: HTTPMethod[];
  /**
   * By pattern, the methods whose route of that pattern a more specific route of the service may
   * take a path from (looked up by the pattern Fastify matched: no string made per request).
   */
  private readonly shadowed = new Map<string, Set<string>>();

  constructor(routes: readonly Declared[]) {
    const methods = new Set<HTTPMethod>();
    const patterns = routes.map((r) => segmentsOf(r.path));
    routes.forEach((route, i) => {
      const method = route.method.toUpperCase() as HTTPMethod;
      methods.add(method);
      // Only another method's route can take a path from this one: the router itself gives a
      // path to the most specific route of its own method.
      const shadowed = patterns.some(
        (other, j) =>
          routes[j].method.toUpperCase() !== method &&
          overlap(patterns[i], other) &&
          specificity(other, patterns[i]) > 0,
      );
      if (shadowed) {
        const methodsOfPattern = this.shadowed.get(route.path) ?? new Set<string>();
        methodsOfPattern.add(method);
        this.shadowed.set(route.path, methodsOfPattern);
      }
      const store: Store = { segments: patterns[i], shadowed };
      this.router.on(method, route.path, () => undefined, store);
    });
    this.methods = [...methods].sort();
  }

  /**
   * The methods served on `path` (the `Allow` of a 405; `HEAD` goes with `GET`), none for a path
   * no route matches.
   */
  allowed(path: string): string[] {
    const found: { method: string; segments: Segments }[] = [];
    for (const method of this.methods) {
      const match = this.router.find(method, path);
      if (match !== null) found.push({ method, segments: (match.store as Store).segments });
    }
    if (found.length === 0) return [];
    const best = found.reduce((a, b) => (specificity(b.segments, a.segments) > 0 ? b : a));
    return found.filter((f) => specificity(f.segments, best.segments) === 0).map((f) => f.method);
  }

  /**
   * Whether the service serves `method` on `path`, or the path is none of its (a 404, not a 405).
   * `routed` is the pattern the adapter's router matched when the adapter knows it before the
   * handler (Fastify; `null` when it matched none): only a match that a more specific route of
   * another method may take the path from needs the look-up over every method.
   */
  serves(method: string, path: string, routed?: string | null): boolean {
    const asked = method === 'HEAD' ? 'GET' : method;
    if (routed === undefined) {
      const match = this.router.find(asked as HTTPMethod, path);
      if (match !== null && !(match.store as Store).shadowed) return true;
    } else if (routed !== null && this.shadowed.get(routed)?.has(asked) !== true) {
      return true;
    }
    const allowed = this.allowed(path);
    return allowed.length === 0 || allowed.includes(asked);
  }
}

/**
 * A method the API does not serve on a path it does serve answers 405 with `Allow` (RFC 9110),
 * before authentication, like any routing answer; a path it does not serve stays a 404.
 * `routes` are the app's own (`declaredRoutes`). Returns the front door's step: true when it
 * answered the request (405), false to go on. `routed`: see `RouteMethods.serves`.
 */
export function methodNotAllowedGate(
  routes: readonly Declared[],
): (req: IncomingMessage, res: ServerResponse, routed?: string | null) => boolean {
  const table = new RouteMethods(routes);
  return (req, res, routed) => {
    const path = pathOf(req);
    const method = (req.method ?? 'GET').toUpperCase();
    if (table.serves(method, path, routed)) return false;
    req.resume(); // a body sent with the wrong method is not read
    setAnswerHeader(res, 'allow', table.allowed(path).sort().join(', '));
    sendError(res, 405, 'METHOD_NOT_ALLOWED', ERROR_MESSAGES.METHOD_NOT_ALLOWED, requestIdOf(req));
    return true;
  };
}
