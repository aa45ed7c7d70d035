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
   * The open connections: added when one opens, dropped when it closes. A request adds nothing
   * (issue 28: no map write, and no 'close' listener on the response, whose 'close' then has one
   * listener, the log line's), and nothing of a response is kept here: `beginDraining` finds each
   * connection's response in flight where Node's server keeps it (`inFlight`), so an idle
   * keep-alive connection holds none.
   */
  private readonly connections = new Set<Socket>();

  constructor(private readonly server: Server) {
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Kept above the keep-alive timeout, as Node's documentation advises.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    const connections = this.connections;
    server.on('connection', (socket: Socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
    });
    // Before the application's own handler, so that the headers are set before it answers.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) =>
      this.onRequest(res),
    );
  }

  beginDraining(): void {
    this.draining = true;
    // A finished response has sent its headers: only those still to answer are marked.
    for (const socket of this.connections) {
      const res = inFlight(socket);
      if (res !== null) this.closeAfter(res);
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
 * The response a connection is answering (null: none). Node's server holds it on the socket from
 * the moment the response is given the connection until it finishes (`_httpMessage`, which its
 * own `closeIdleConnections` reads; http-terminator reads it for the same purpose). Not in Node's
 * documentation: `http-drain.spec.ts` pins it, and fails on a Node that keeps it elsewhere.
 */
export function inFlight(socket: Socket): ServerResponse | null {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}
