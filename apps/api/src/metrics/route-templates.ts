/** A route as the application declares it: method and path template (`/api/interrupts/:id`). */
export interface RouteTemplate {
  readonly method: string;
  readonly path: string;
}

/** The label of a request that matched no declared route (the dashboard's files, 404s). */
export const UNMATCHED_ROUTE = 'unmatched';

interface Node {
  readonly statics: Map<string, Node>;
  param: Node | undefined;
  /** Method → template, for a path that ends here. */
  readonly routes: Map<string, string>;
}

const newNode = (): Node => ({ statics: new Map(), param: undefined, routes: new Map() });

/**
 * Finds the template a request path belongs to, from the declared routes alone, so that the
 * metric labels stay bounded (templates, never raw paths or ids) whichever HTTP adapter serves
 * the request and whether or not a guard refused it before the handler. Static segments win over
 * parameters, as in the routers; matching is case-insensitive, as Express's and Fastify's
 * defaults here are. A path that matches a template under another method is labelled with the
 * template (the 405 belongs to the route).
 */
export class RouteTemplates {
  private readonly root = newNode();

  constructor(routes: readonly RouteTemplate[]) {
    for (const route of routes) {
      let node = this.root;
      for (const segment of segments(route.path)) {
        if (segment.startsWith(':')) node = node.param ??= newNode();
        else {
          const key = segment.toLowerCase();
          let next = node.statics.get(key);
          if (next === undefined) node.statics.set(key, (next = newNode()));
          node = next;
        }
      }
      node.routes.set(route.method.toUpperCase(), route.path);
    }
  }

  /** The template for `method` and `url` (path and query); `UNMATCHED_ROUTE` when none. */
  match(method: string, url: string): string {
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const node = this.find(this.root, segments(path), 0);
    if (node === undefined) return UNMATCHED_ROUTE;
    const upper = method.toUpperCase();
    const template =
      node.routes.get(upper) ?? (upper === 'HEAD' ? node.routes.get('GET') : undefined);
    return template ?? node.routes.values().next().value ?? UNMATCHED_ROUTE;
  }

  private find(node: Node, parts: string[], at: number): Node | undefined {
    if (at === parts.length) return node.routes.size > 0 ? node : undefined;
    const next = node.statics.get(parts[at].toLowerCase());
    const found = next === undefined ? undefined : this.find(next, parts, at + 1);
    if (found !== undefined) return found;
    return node.param === undefined ? undefined : this.find(node.param, parts, at + 1);
  }
}

function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}
