import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Metrics } from './metrics';
import type { RouteTemplates } from './route-templates';

interface InFlight {
  readonly route: string;
  readonly res: ServerResponse;
}

/**
 * Counts and times every request at the Node HTTP server itself — the `request` event and the
 * response's `close` — so it measures the same way under Nest's Express or Fastify adapter, and
 * also sees requests a guard, the body reader or the 404 handler answered before any handler ran.
 * The route label is the declared template the path matches (`RouteTemplates`). Returns the
 * function that stops it.
 */
export function instrumentHttpServer(server: Server, metrics: Metrics, routes: RouteTemplates): () => void {
  const inFlight = new Set<InFlight>();
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const method = req.method ?? 'GET';
    const entry: InFlight = { route: routes.match(method, req.url ?? '/'), res };
    inFlight.add(entry);
    res.once('close', () => {
      inFlight.delete(entry);
      // Headers never sent: the client (or a shutdown) closed the connection before an answer.
      const statusClass = res.headersSent ? `${Math.floor(res.statusCode / 100)}xx` : 'aborted';
      const labels = { route: entry.route, method, status_class: statusClass };
      metrics.httpRequests.inc(labels);
      if (!isEventStream(res)) metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
  };
  server.on('request', onRequest);

  // Routes seen in flight keep their series at 0 afterwards, so a graph drops to 0, not to nothing.
  const seen = { requests: new Set<string>(), streams: new Set<string>() };
  metrics.addCollector('http', () => {
    const requests = new Map<string, number>();
    const streams = new Map<string, number>();
    for (const { route, res } of inFlight) {
      requests.set(route, (requests.get(route) ?? 0) + 1);
      if (isEventStream(res)) streams.set(route, (streams.get(route) ?? 0) + 1);
    }
    for (const route of requests.keys()) seen.requests.add(route);
    for (const route of streams.keys()) seen.streams.add(route);
    for (const route of seen.requests) metrics.httpInFlight.set({ route }, requests.get(route) ?? 0);
    for (const route of seen.streams) metrics.httpStreamsOpen.set({ route }, streams.get(route) ?? 0);
  });
  return () => server.off('request', onRequest);
}

function isEventStream(res: ServerResponse): boolean {
  if (!res.headersSent) return false;
  const type = res.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('text/event-stream');
}
