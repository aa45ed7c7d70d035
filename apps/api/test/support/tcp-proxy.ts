import { createServer, Server, Socket, connect } from 'node:net';

/**
 * A loopback TCP proxy in front of Postgres, so a test can cut the database off (and restore
 * it) under a running service. While cut, it keeps listening but drops every connection.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private down = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      if (this.down) {
        client.destroy();
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
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
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /**
   * Refuses every new connection until `restore`, leaving open ones be: with the server
   * terminating those (`pg_terminate_backend`: FATAL 57P01, as a fast shutdown does), this is
   * Postgres stopping, as the service sees it.
   */
  refuseNew(): void {
    this.down = true;
  }

  /** Drops every open connection and every new one until `restore`. */
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
