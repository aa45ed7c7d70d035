import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** When the request arrived (Date.now()). */
  at: number;
}

/**
 * What to answer a request: a status, after an optional delay, with an optional body and headers
 * (the body `ok` in text by default); `hold` never answers until released.
 */
export type Answer =
  { status: number; delayMs?: number; body?: string; headers?: Record<string, string> } | 'hold';

/**
 * A real HTTP endpoint on loopback that records every webhook delivery (method, path, headers,
 * the raw body) and answers as the test says.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  connections = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly held: ServerResponse[] = [];
  private readonly listeners = new Set<() => void>();
  port = 0;

  constructor(
    private answer: (req: ReceivedRequest, index: number) => Answer = () => ({ status: 204 }),
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Changes how later requests are answered. */
  answerWith(answer: (req: ReceivedRequest, index: number) => Answer): void {
    this.answer = answer;
  }

  async start(port = 0): Promise<void> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([k, v]) => [
              k,
              Array.isArray(v) ? v.join(', ') : (v ?? ''),
            ]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const index = this.requests.length;
        this.requests.push(received);
        this.notify();
        const answer = this.answer(received, index);
        if (answer === 'hold') {
          this.held.push(res);
          return;
        }
        const reply = () =>
          res
            .writeHead(answer.status, {
              'content-type': answer.body === undefined ? 'text/plain' : 'application/json',
              ...answer.headers,
            })
            .end(answer.body ?? 'ok');
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    server.on('connection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Answers every held request with `status`. */
  release(status = 204): void {
    for (const res of this.held.splice(0)) if (!res.writableEnded) res.writeHead(status).end();
  }

  /** The parsed bodies, in arrival order. */
  events(): {
    id: string;
    type: string;
    createdAt: string;
    organisationId: string;
    data: Record<string, unknown>;
  }[] {
    return this.requests.map((r) => JSON.parse(r.body));
  }

  /** Resolves once `check` holds (re-evaluated on every request), or rejects after `timeoutMs`. */
  until(check: () => boolean, timeoutMs = 10_000, what = 'the receiver'): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(
          new Error(
            `${what}: timed out after ${timeoutMs} ms with ${this.requests.length} requests`,
          ),
        );
      }, timeoutMs);
      const listener = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  async stop(): Promise<void> {
    this.release(503);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** The receivers a suite starts as its tests need them, stopped together in its afterAll. */
export class WebhookReceivers {
  private readonly started: WebhookReceiver[] = [];

  /** A new receiver, listening, answering as `answer` says (default 204). */
  async start(answer?: ConstructorParameters<typeof WebhookReceiver>[0]): Promise<WebhookReceiver> {
    const r = new WebhookReceiver(answer);
    await r.start();
    this.started.push(r);
    return r;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.map((r) => r.stop()));
  }
}
