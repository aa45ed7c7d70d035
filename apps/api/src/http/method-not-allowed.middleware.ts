import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_MESSAGES } from '@interlock/domain';
import { sendError } from './error-response.util';
import { UUID } from './id-param.pipe';
import { pathOf } from './platform';
import { requestIdOf } from './request-state';

interface PathNode {
  readonly literal: Map<string, PathNode>;
  /** A parameter that may be any segment. */
  param: PathNode | undefined;
  /** A parameter only a UUID fills (`@IdParam`): never a sibling literal segment. */
  uuidParam: PathNode | undefined;
  readonly methods: Set<string>;
}

const node = (): PathNode => ({
  literal: new Map(),
  param: undefined,
  uuidParam: undefined,
  methods: new Set(),
});

/**
 * Whether the UUID-only parameter of a node takes `segment`, given the literal sibling it matched.
 * It does not take a segment a literal sibling matches (`revoke-others` beside `:id`): no UUID
 * is spelt like a literal, so that path is the literal route's alone. Any other segment still
 * reaches it, so a wrong method on `/x/not-a-uuid` stays a 405 while the right one meets the
 * route's own 404.
 */
function uuidParamTakes(literal: PathNode | undefined, segment: string): boolean {
  return literal === undefined || UUID.test(segment);
}

/** The segments of a path as the routes are matched: one trailing slash allowed, none empty. */
export function segmentsOf(path: string): string[] | undefined {
  const segments = path.split('/');
  if (segments[0] !== '') return undefined;
  segments.shift();
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  if (segments.length === 1 && segments[0] === '') return [];
  return segments.some((s) => s === '') ? undefined : segments;
}

/** The methods served on `path`: every route whose pattern matches it (a `:param` matches any one segment, a UUID-only one not a literal sibling's). */
function collect(at: PathNode, segments: readonly string[], i: number, into: Set<string>): void {
  if (i === segments.length) {
    for (const m of at.methods) into.add(m);
    return;
  }
  const literal = at.literal.get(segments[i].toLowerCase());
  if (literal !== undefined) collect(literal, segments, i + 1, into);
  if (at.param !== undefined) collect(at.param, segments, i + 1, into);
  if (at.uuidParam !== undefined && uuidParamTakes(literal, segments[i]))
    collect(at.uuidParam, segments, i + 1, into);
}

const NO_ROUTE = 0;
const OTHER_METHODS = 1;
const SERVED = 2;

/** Whether a route serves `method` on the path (SERVED), only other methods (OTHER_METHODS), or none matches. */
function lookup(at: PathNode, segments: readonly string[], i: number, method: string): number {
  if (i === segments.length) {
    if (at.methods.size === 0) return NO_ROUTE;
    return at.methods.has(method) || (method === 'HEAD' && at.methods.has('GET'))
      ? SERVED
      : OTHER_METHODS;
  }
  let found = NO_ROUTE;
  const literal = at.literal.get(segments[i].toLowerCase());
  if (literal !== undefined) found = lookup(literal, segments, i + 1, method);
  if (found !== SERVED && at.param !== undefined)
    found = Math.max(found, lookup(at.param, segments, i + 1, method));
  if (found !== SERVED && at.uuidParam !== undefined && uuidParamTakes(literal, segments[i]))
    found = Math.max(found, lookup(at.uuidParam, segments, i + 1, method));
  return found;
}

/**
 * A method the API does not serve on a path it does serve answers 405 with `Allow` (RFC 9110),
 * before authentication, like any routing answer; a path it does not serve stays a 404. `HEAD`
 * goes wherever `GET` does. `routes` are the app's own (`declaredRoutes`), `:param` segments
 * matching any one segment — except a parameter in the route's `uuidParams`, which never takes a
 * segment a sibling literal matches (`uuidParamTakes`) —, literal segments case-insensitively, one
 * trailing slash allowed.
 * The routes are a tree of segments, so a request walks its own path's segments instead of
 * testing every route's pattern, and the set of allowed methods is only made for a 405 (issue 14).
 *
 * Returns the front door's step: true when it answered the request (405), false to go on.
 */
export function methodNotAllowedGate(
  routes: readonly { method: string; path: string; uuidParams?: readonly string[] }[],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const root = node();
  for (const route of routes) {
    const segments = segmentsOf(route.path);
    if (segments === undefined) throw new Error(`cannot index the route path ${route.path}`);
    let at = root;
    for (const segment of segments) {
      if (/^:\w+$/.test(segment)) {
        at = route.uuidParams?.includes(segment.slice(1))
          ? (at.uuidParam ??= node())
          : (at.param ??= node());
      } else {
        if (segment.includes(':') || /[*?()[\]]/.test(segment))
          throw new Error(`cannot index the route path ${route.path}`);
        const key = segment.toLowerCase();
        let next = at.literal.get(key);
        if (next === undefined) at.literal.set(key, (next = node()));
        at = next;
      }
    }
    at.methods.add(route.method.toUpperCase());
  }
  return (req, res) => {
    const segments = segmentsOf(pathOf(req));
    if (segments === undefined) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    if (lookup(root, segments, 0, method) !== OTHER_METHODS) return false;
    const allowed = new Set<string>();
    collect(root, segments, 0, allowed);
    req.resume(); // a body sent with the wrong method is not read
    res.setHeader('allow', [...allowed].sort().join(', '));
    sendError(res, 405, 'METHOD_NOT_ALLOWED', ERROR_MESSAGES.METHOD_NOT_ALLOWED, requestIdOf(req));
    return true;
  };
}
