import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of the service, so a test can drop the browser's connections
 * (a network that fails for a while) and let it reconnect. While cut, it keeps listening but
 * drops every connection at once.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private down = false;
  port = 0;

  constructor(private readonly target: URL) {}

  /** The proxy as the browser reaches it (localhost, so the session cookie goes with it). */
  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      if (this.down) return void client.destroy();
      const upstream = connect(Number(this.target.port), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, this.target.hostname, resolve));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Drops every open connection, and every new one until `restore`. */
  cut(): void {
    this.down = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.down = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
