import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type Linked, LinkedList } from '../http/linked-list.util';
import type { Metrics } from './metrics';
import type { RouteTemplates } from './route-templates';

interface InFlight extends Linked<InFlight> {
  readonly route: string;
  readonly res: ServerResponse;
  /** A long poll (`waitSeconds` above 0, SPEC §8e): it lasts until an answer or its timeout. */
  readonly longPoll: boolean;
}

/** `waitSeconds=N` with N > 0 anywhere in the query: the request may be held (a long poll). */
const LONG_POLL = /[?&]waitSeconds=0*[1-9]/;

export function isLongPoll(url: string): boolean {
  return LONG_POLL.test(url);
}

/**
 * Counts and times every request at the Node HTTP server itself — the `request` event and the
 * response's `close` — so it measures the same way under Nest's Express or Fastify adapter, and
 * also sees requests a guard, the body reader or the 404 handler answered before any handler ran.
 * The route label is the declared template the path matches (`RouteTemplates`). Returns the
 * function that stops it.
 */
export function instrumentHttpServer(
  server: Server,
  metrics: Metrics,
  routes: RouteTemplates,
): () => void {
  // A linked list, not a Set added to and deleted from per request (issue 28: `LinkedList`).
  const inFlight = new LinkedList<InFlight>();
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const entry: InFlight = {
      route: routes.match(method, url),
      res,
      longPoll: isLongPoll(url),
      before: undefined,
      after: undefined,
    };
    inFlight.add(entry);
    res.once('close', () => {
      inFlight.remove(entry);
      // Headers never sent: the client (or a shutdown) closed the connection before an answer.
      const statusClass = res.headersSent ? `${Math.floor(res.statusCode / 100)}xx` : 'aborted';
      const labels = { route: entry.route, method, status_class: statusClass };
      metrics.httpRequests.inc(labels);
      // Streams and long polls last as long as the client or a person makes them: not latency.
      if (!entry.longPoll && !isEventStream(res))
        metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
  };
  server.on('request', onRequest);

  // Routes seen in flight keep their series at 0 afterwards, so a graph drops to 0, not to nothing.
  const seen = {
    requests: new Set<string>(),
    streams: new Set<string>(),
    longPolls: new Set<string>(),
  };
  metrics.addCollector('http', () => {
    const requests = new Map<string, number>();
    const streams = new Map<string, number>();
    const longPolls = new Map<string, number>();
    const add = (counts: Map<string, number>, route: string) =>
      counts.set(route, (counts.get(route) ?? 0) + 1);
    for (const { route, res, longPoll } of inFlight) {
      add(requests, route);
      if (isEventStream(res)) add(streams, route);
      if (longPoll) add(longPolls, route);
    }
    const publish = (
      counts: Map<string, number>,
      known: Set<string>,
      gauge: Metrics['httpInFlight'],
    ) => {
      for (const route of counts.keys()) known.add(route);
      for (const route of known) gauge.set({ route }, counts.get(route) ?? 0);
    };
    publish(requests, seen.requests, metrics.httpInFlight);
    publish(streams, seen.streams, metrics.httpStreamsOpen);
    publish(longPolls, seen.longPolls, metrics.httpLongPollsOpen);
  });
  return () => server.off('request', onRequest);
}

function isEventStream(res: ServerResponse): boolean {
  if (!res.headersSent) return false;
  const type = res.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('text/event-stream');
}
