import type { NextFunction, Request, Response } from 'express';
import { segmentsOf } from './method-not-allowed.middleware';

/** What this module reads of Express 5's router (`router` 2.x): its layers and their routes. */
interface RouterLayer {
  handle: unknown;
  route?: RouterRoute;
  match(path: string): unknown;
}
interface RouterRoute {
  path: unknown;
  methods: Record<string, boolean | undefined>;
  dispatch(req: Request, res: Response, done: NextFunction): void;
}

interface Candidate {
  /** The route's place in the router's stack: Express takes the first that matches. */
  readonly order: number;
  readonly route: RouterRoute;
  /** The route's parameter names by segment position. */
  readonly params: readonly (string | undefined)[];
}

interface DispatchNode {
  readonly literal: Map<string, DispatchNode>;
  param: DispatchNode | undefined;
  /** By upper-case method: the routes ending here, first in the stack first. */
  readonly methods: Map<string, Candidate[]>;
}

const node = (): DispatchNode => ({ literal: new Map(), param: undefined, methods: new Map() });

/** A middleware between the front door and the routes, at its place in the router's stack. */
interface Middleware {
  readonly order: number;
  readonly layer: RouterLayer;
}

interface DispatchTable {
  readonly root: DispatchNode;
  readonly middleware: readonly Middleware[];
}

/** The methods a request may be dispatched for directly; HEAD and OPTIONS keep Express's own rules. */
const DIRECT_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;
const PARAM_SEGMENT = /^:(\w+)$/;

function decodeParam(value: string): string | undefined {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Finds a request's route by walking its path's segments through a tree of the app's routes,
 * and dispatches it there, instead of Express testing every route's pattern in turn (about 70
 * here: the largest single cost of the request path after the socket, issue 14). Exactly the
 * route Express would pick: the tree is read from the router's own stack after the app has
 * registered its routes, among the routes that match it picks the first in the stack, with
 * Express's matching (literal segments case-insensitive, `:param` one non-empty segment, one
 * trailing slash allowed) and its parameter decoding. Whatever it is not sure of goes to the
 * router as before: HEAD and OPTIONS, a path with an empty segment, a parameter that does not
 * decode, a request a middleware before its route would take (tested on the request's own
 * path), and every route after one it cannot index.
 */
export class RouteDispatcher {
  private table: DispatchTable | undefined;

  /**
   * @param stack the router's layers (read at the first request: routes are registered when the app starts)
   * @param front the handler of the middleware that calls `dispatch` (layers before it have run already)
   */
  constructor(
    private readonly stack: () => readonly unknown[],
    private readonly front: () => unknown,
  ) {}

  /** Dispatches the request to its route, or passes it on to the router (`next`). */
  dispatch(req: Request, res: Response, next: NextFunction): void {
    if (!DIRECT_METHODS.has(req.method)) return next();
    const segments = segmentsOf(req.path);
    if (segments === undefined) return next();
    const table = (this.table ??= this.build());
    const found = this.find(table.root, segments, 0, req.method, undefined);
    if (found === undefined) return next();
    // A middleware before the route that takes this path runs first, as Express would run it.
    for (const m of table.middleware) {
      if (m.order > found.order) break;
      if (matches(m.layer, req.path)) return next();
    }
    // As path-to-regexp makes them: no prototype.
    const params = Object.create(null) as Record<string, string>;
    for (let i = 0; i < found.params.length; i++) {
      const name = found.params[i];
      if (name === undefined) continue;
      const value = decodeParam(segments[i]);
      if (value === undefined) return next();
      params[name] = value;
    }
    req.params = params;
    found.route.dispatch(req, res, next);
  }

  private find(
    at: DispatchNode,
    segments: readonly string[],
    i: number,
    method: string,
    best: Candidate | undefined,
  ): Candidate | undefined {
    if (i === segments.length) {
      const here = at.methods.get(method)?.[0];
      return here !== undefined && (best === undefined || here.order < best.order) ? here : best;
    }
    const literal = at.literal.get(segments[i].toLowerCase());
    if (literal !== undefined) best = this.find(literal, segments, i + 1, method, best);
    if (at.param !== undefined && segments[i] !== '')
      best = this.find(at.param, segments, i + 1, method, best);
    return best;
  }

  private build(): DispatchTable {
    const root = node();
    const middleware: Middleware[] = [];
    const layers = this.stack() as readonly RouterLayer[];
    const front = this.front();
    const start = layers.findIndex((layer) => layer.handle === front);
    if (start < 0) return { root, middleware }; // not mounted as expected: everything goes to the router
    for (let order = start + 1; order < layers.length; order++) {
      const layer = layers[order];
      const route = layer.route;
      if (route === undefined) {
        middleware.push({ order, layer });
        continue;
      }
      const segments = typeof route.path === 'string' ? segmentsOf(route.path) : undefined;
      if (
        route.methods._all ||
        segments === undefined ||
        !segments.every((s) => LITERAL_SEGMENT.test(s) || PARAM_SEGMENT.test(s))
      )
        break;
      let at = root;
      const params: (string | undefined)[] = [];
      for (const segment of segments) {
        const name = PARAM_SEGMENT.exec(segment)?.[1];
        params.push(name);
        if (name !== undefined) {
          at = at.param ??= node();
        } else {
          const key = segment.toLowerCase();
          let next = at.literal.get(key);
          if (next === undefined) at.literal.set(key, (next = node()));
          at = next;
        }
      }
      for (const [method, served] of Object.entries(route.methods)) {
        const upper = method.toUpperCase();
        if (!served || !DIRECT_METHODS.has(upper)) continue;
        const list = at.methods.get(upper) ?? [];
        list.push({ order, route, params });
        at.methods.set(upper, list);
      }
    }
    return { root, middleware };
  }
}

function matches(layer: RouterLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    return true;
  }
}
