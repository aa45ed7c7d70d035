import { get, IncomingMessage, ClientRequest } from 'node:http';

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: Record<string, unknown>;
  at: number;
}

/** A minimal EventSource over node:http that records events, comments and the end. */
export class SseClient {
  readonly events: SseEvent[] = [];
  comments = 0;
  ended = false;
  private buffer = '';
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly res: IncomingMessage,
    private readonly req: ClientRequest,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        this.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
      }
      this.notify();
    });
    res.on('end', () => {
      this.ended = true;
      this.notify();
    });
    res.on('error', () => undefined);
  }

  static open(url: string, headers: Record<string, string>): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) =>
        resolve(new SseClient(res, req)),
      );
      req.on('error', reject);
    });
  }

  get status(): number | undefined {
    return this.res.statusCode;
  }

  messages(): SseEvent[] {
    return this.events.filter((e) => e.event === 'message');
  }

  /** Resolves once `check` holds (re-evaluated on every chunk), or rejects after `timeoutMs`. */
  until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out; events so far: ${JSON.stringify(this.events)}`));
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

  close(): void {
    this.req.destroy();
  }

  private parse(block: string): void {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments++;
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0)
      this.events.push({ id, event, data: JSON.parse(data.join('\n')), at: Date.now() });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
