import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Metrics } from './metrics';
import type { RouteTemplates } from './route-templates';

interface InFlight {
  readonly route: string;
  readonly res: ServerResponse;
  /** A long poll (`waitSeconds` above 0, SPEC §8e): it lasts until an answer or its timeout. */
  readonly longPoll: boolean;
  /** Its neighbours in the list of requests in flight (`InFlightList`). */
  before: InFlight | undefined;
  after: InFlight | undefined;
}

/**
 * The requests in flight, each linked to its neighbours: a request adds itself and unlinks itself
 * when it closes, and nothing of it is left in the list — not, as with a Set, in a table. A Set
 * living as long as the process has its table in V8's old generation; added to and deleted from
 * on every request, it is rehashed every few requests into a new table allocated old too, and
 * each table left behind keeps the entries it had (the requests then in flight, with their
 * responses, requests and headers) until the next full collection: every scavenge before it
 * counts them alive and promotes them (issue 28, session 21; `HttpDrain` had the same with a
 * Map). Here an unlinked entry points nowhere, and a neighbour that has reached old space (a long
 * poll, an event stream) is relinked to the live ones when an entry leaves.
 */
class InFlightList {
  private first: InFlight | undefined = undefined;

  add(entry: InFlight): void {
    entry.after = this.first;
    if (this.first !== undefined) this.first.before = entry;
    this.first = entry;
  }

  remove(entry: InFlight): void {
    if (entry.before === undefined) {
      if (this.first !== entry) return;
      this.first = entry.after;
    } else entry.before.after = entry.after;
    if (entry.after !== undefined) entry.after.before = entry.before;
    entry.before = undefined;
    entry.after = undefined;
  }

  *[Symbol.iterator](): IterableIterator<InFlight> {
    for (let entry = this.first; entry !== undefined; entry = entry.after) yield entry;
  }
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
  const inFlight = new InFlightList();
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
