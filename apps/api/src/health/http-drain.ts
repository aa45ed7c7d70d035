import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long the server keeps an idle keep-alive connection: longer than any client or proxy in
 * front keeps one (undici 4 s, Python's httpx 5 s, HAProxy's and nginx's upstream pools, an AWS
 * ALB's 60 s), so that it is always the client that closes an idle connection. When the server
 * closes first, a request the client sends at that moment meets a closed socket ("other side
 * closed"). Node's default, 5 s, ties with httpx and is within a second of undici.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/**
 * What responses advertise (`Keep-Alive: timeout=5`): clients that read it (undici keeps a
 * connection for the advertised time less 2 s) stay far inside the server's real timeout.
 */
const ADVERTISED_KEEP_ALIVE_S = 5;
const KEEP_ALIVE_HEADER = `timeout=${ADVERTISED_KEEP_ALIVE_S}`;
const IDLE_SWEEP_MS = 100;
export const REQUEST_START = 'http.server.request.start';
export const RESPONSE_FINISH = 'http.server.response.finish';

/**
 * A connection's response in flight (null: none; absent: no request started on it yet). A symbol of ours on Node's socket, as Node keeps its own
 * (`_httpMessage`): one property added per connection, none per request.
 */
const RESPONSE_IN_FLIGHT = Symbol('interlock.responseInFlight');
type Connection = Socket & { [RESPONSE_IN_FLIGHT]?: ServerResponse | null };

/**
 * The HTTP server's side of a graceful shutdown:
 * - `beginDraining` — every response from now on (and every one in flight whose headers are not
 *   yet sent) carries `Connection: close`, so each connection ends after its current response
 *   and clients (or a balancer) open their next one elsewhere, while new connections are still
 *   accepted and served;
 * - `close` — stops accepting, closes idle connections as they become idle, and resolves once
 *   every connection has ended (in-flight requests finish; event streams are ended by their
 *   owners when the server stops listening).
 */
export class HttpDrain {
  private draining = false;
  /**
   * The connections that have started a request, each carrying its response in flight
   * (`RESPONSE_IN_FLIGHT`): set when Node's server starts a request on it and cleared when that
   * response finishes, so an idle keep-alive connection holds none. What `beginDraining` marks.
   * With pipelined requests it is the latest one started (the last to be written), so the
   * responses before it keep the connection open for it and it closes the connection. Learnt from
   * Node's public diagnostics channels, which its HTTP server publishes for every request (both
   * adapters run on it): no listener on the response (issue 28: its 'close' then has one
   * listener, the log line's).
   *
   * The response is kept on its connection, not as an entry of this set, so that a request
   * writes no entry into a collection that lives as long as the process (issue 28, session 21):
   * a Map whose table is in V8's old generation grows into new tables allocated old too, and each
   * table it leaves behind keeps the entries it had — the responses then in flight, and through
   * them their requests and headers — for as long as that dead table stays in the heap, until the
   * next full collection. Every scavenge in between counts them alive and promotes them: with a
   * `Map<Socket, ServerResponse>` set and deleted per request, ~12 % of a PK read's allocated
   * bytes reached the old generation. The set changes per connection only.
   */
  private readonly connections = new Set<Connection>();

  constructor(private readonly server: Server) {
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Kept above the keep-alive timeout, as Node's documentation advises.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    const connections = this.connections;
    // The channels are the process's: only this server's messages count. A request starts before
    // the server's 'request' event, so its headers are set before the application answers: no
    // 'request' listener of ours (with two, Node copies the listener array on every request).
    const onStart = (message: unknown) => {
      const { server: from, socket, response } = message as ServerMessage;
      if (from !== server) return;
      // A connection's first request: known from now until it closes (the request's socket,
      // whatever kind of socket the server's connection event gave).
      if (socket[RESPONSE_IN_FLIGHT] === undefined) {
        connections.add(socket);
        // A response that never finishes (its connection lost) goes with its connection.
        socket.once('close', () => {
          connections.delete(socket);
          socket[RESPONSE_IN_FLIGHT] = null;
        });
      }
      socket[RESPONSE_IN_FLIGHT] = response;
      this.onRequest(response);
    };
    const onFinish = (message: unknown) => {
      const { server: from, socket, response } = message as ServerMessage;
      if (from === server && socket[RESPONSE_IN_FLIGHT] === response)
        socket[RESPONSE_IN_FLIGHT] = null;
    };
    subscribe(REQUEST_START, onStart);
    subscribe(RESPONSE_FINISH, onFinish);
    // Several servers come and go in one process (tests): a closed one leaves no subscriber.
    server.once('close', () => {
      unsubscribe(REQUEST_START, onStart);
      unsubscribe(RESPONSE_FINISH, onFinish);
    });
  }

  beginDraining(): void {
    this.draining = true;
    // A finished response has sent its headers: only those still to answer are marked.
    for (const socket of this.connections) {
      const res = socket[RESPONSE_IN_FLIGHT];
      if (res !== undefined && res !== null) this.closeAfter(res);
    }
  }

  close(): Promise<void> {
    this.beginDraining();
    return new Promise((resolve) => {
      const sweep = setInterval(() => this.server.closeIdleConnections(), IDLE_SWEEP_MS);
      sweep.unref();
      this.server.close(() => {
        clearInterval(sweep);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  private onRequest(res: ServerResponse): void {
    if (this.draining) this.closeAfter(res);
    else res.setHeader('keep-alive', KEEP_ALIVE_HEADER);
  }

  private closeAfter(res: ServerResponse): void {
    if (res.headersSent) return;
    res.removeHeader('keep-alive');
    res.setHeader('connection', 'close');
  }
}

/**
 * What Node's HTTP server publishes on these channels (documented in Node's diagnostics_channel
 * "Built-in channels"): a request starting (before the server's 'request' event) and its
 * response finishing.
 */
interface ServerMessage {
  request: IncomingMessage;
  response: ServerResponse;
  socket: Connection;
  server: Server;
}
