import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { removeAnswerHeader, setAnswerHeader } from '../http/answer-headers';
import { type Linked, LinkedList } from '../http/linked-list.util';
import type { HttpResponse } from '../http/platform';

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
 * A connection that has started a request: its response in flight (null: none) and its
 * neighbours in the drain's list. Kept on Node's socket under a symbol of ours, as Node keeps its
 * own (`_httpMessage`): one property and one entry per connection, none per request.
 */
interface Tracked extends Linked<Tracked> {
  /** Its socket: an entry left in the list after its connection closed keeps it (a test sees). */
  readonly socket: Socket;
  response: ServerResponse | null;
}
const TRACKED = Symbol('interlock.drain.connection');
type Connection = Socket & { [TRACKED]?: Tracked };

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
  /** The front door sets the answers' `Keep-Alive` (`connectionHeaderStep`), not the drain. */
  private readonly byFrontDoor: boolean;
  /**
   * The connections that have started a request, each with its response in flight: set when
   * Node's server starts a request on it and cleared when that response finishes, so an idle
   * keep-alive connection holds none. What `beginDraining` marks. With pipelined requests it is
   * the latest one started (the last to be written), so the responses before it keep the
   * connection open for it and it closes the connection. Learnt from Node's public diagnostics
   * channels, which its HTTP server publishes for every request (both adapters run on it): no
   * listener on the response (issue 28: its 'close' then has one listener, the log line's).
   *
   * The response is kept on its connection's entry, and the entries in a linked list, so that
   * neither a request nor a connection writes into a collection that lives as long as the
   * process (issue 28, session 21: `LinkedList`). A `Map<Socket, ServerResponse>` set and deleted
   * per request had ~12 % of a PK read's allocated bytes promoted; a Set added to and deleted from
   * per connection does the same per request for clients that send `Connection: close`.
   */
  private readonly connections = new LinkedList<Tracked>();

  constructor(private readonly server: Server) {
    this.byFrontDoor = setByFrontDoor.has(server);
    drains.set(server, this);
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
      let tracked = socket[TRACKED];
      if (tracked === undefined) {
        const entry: Tracked = { socket, response: null, before: undefined, after: undefined };
        socket[TRACKED] = tracked = entry;
        connections.add(entry);
        // A response that never finishes (its connection lost) goes with its connection.
        socket.once('close', () => {
          connections.remove(entry);
          entry.response = null;
        });
      }
      tracked.response = response;
      this.onRequest(response);
    };
    const onFinish = (message: unknown) => {
      const { server: from, socket, response } = message as ServerMessage;
      const tracked = socket[TRACKED];
      if (from === server && tracked !== undefined && tracked.response === response)
        tracked.response = null;
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
    for (const { response } of this.connections) if (response !== null) this.closeAfter(response);
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

  get isDraining(): boolean {
    return this.draining;
  }

  private onRequest(res: ServerResponse): void {
    if (this.draining) this.closeAfter(res);
    else if (!this.byFrontDoor) res.setHeader('keep-alive', KEEP_ALIVE_HEADER);
  }

  private closeAfter(res: ServerResponse): void {
    if (res.headersSent) return;
    removeAnswerHeader(res, 'keep-alive');
    setAnswerHeader(res, 'connection', 'close');
  }
}

/** Servers whose app's front door sets the answers' `Keep-Alive` (`connectionHeaderStep`). */
const setByFrontDoor = new WeakSet<Server>();
const drains = new WeakMap<Server, HttpDrain>();

/**
 * The front door's step that advertises the keep-alive timeout (`Keep-Alive: timeout=5`) on an
 * answer of `server` while its drain (once made) is not draining, where the answer's headers go
 * (`setAnswerHeader`: Fastify's reply). The drain then sets nothing on Node's response when a
 * request starts: one header set there sends every answer down Node's slower head-writing
 * path (issue 28). Without a drain (tests' apps) nothing is advertised, as before.
 */
export function connectionHeaderStep(server: Server): (res: HttpResponse) => void {
  setByFrontDoor.add(server);
  return (res) => advertiseKeepAlive(server, res);
}

/**
 * The connection step itself, for an answer of `server` that the front door's hook never saw
 * (Fastify's `frameworkErrors`: a malformed URL, a parameter over the router's length):
 * `Keep-Alive: timeout=5` while its drain is not draining (Node's own `timeout=65` otherwise).
 */
export function advertiseKeepAlive(server: Server, res: HttpResponse): void {
  const drain = drains.get(server);
  if (drain !== undefined && !drain.isDraining)
    setAnswerHeader(res, 'keep-alive', KEEP_ALIVE_HEADER);
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
