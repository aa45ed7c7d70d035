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
   * Each open connection's latest response (finished or not): what `beginDraining` marks. Kept by
   * connection, not by response — a connection's entry is written over by its next request and
   * dropped when it closes — so a request pays one map write: no set entry and no 'close'
   * listener of its own (issue 28: the response's 'close' then has one listener, the log line's).
   * An entry holds at most one response per open connection.
   */
  private readonly latest = new Map<Socket, ServerResponse>();

  constructor(private readonly server: Server) {
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Kept above the keep-alive timeout, as Node's documentation advises.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    const latest = this.latest;
    server.on('connection', (socket: Socket) => {
      socket.once('close', () => latest.delete(socket));
    });
    // Before the application's own handler, so that the headers are set before it answers.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
      this.onRequest(req, res),
    );
  }

  beginDraining(): void {
    this.draining = true;
    // A finished response has sent its headers: only those still to answer are marked.
    for (const res of this.latest.values()) this.closeAfter(res);
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

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    if (this.draining) {
      this.closeAfter(res);
      return;
    }
    res.setHeader('keep-alive', KEEP_ALIVE_HEADER);
    this.latest.set(req.socket, res);
  }

  private closeAfter(res: ServerResponse): void {
    if (res.headersSent) return;
    res.removeHeader('keep-alive');
    res.setHeader('connection', 'close');
  }
}
