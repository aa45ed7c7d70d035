import { EventEmitter } from 'node:events';
import type { HttpRequest } from './platform';
import type { Logger } from 'pino';

// What the unit specs of the live feeds (the Live View, the organisation's events) drive the
// HTTP layer's SseStreams with: a response that records what is written, and the request.

/** Just enough of Node's response (what SseStreams writes on, either adapter): records writes and the status, can be made slow. */
export class FakeResponse extends EventEmitter {
  chunks: string[] = [];
  writableEnded = false;
  statusCode = 0;
  /** While true, writes report a full buffer (the client is slow to read). */
  slow = false;
  readonly headers: Record<string, string> = {};
  setHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
  flushHeaders(): void {
    // Headers are not modelled.
  }
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return !this.slow;
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
  get text() {
    return this.chunks.join('');
  }
  events(): string[] {
    return [...this.text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
  }
  ids(): number[] {
    return [...this.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  }
}

/** The sign-in token every fake request carries in its cookie. */
export const SIGN_IN_TOKEN = 'a-sign-in-token-of-enough-length';

/** A signed-in member's request, resuming after `lastEventId` when given (the Last-Event-ID header). */
export function streamRequest(lastEventId?: number | string): HttpRequest {
  return {
    headers: {
      cookie: `session=${SIGN_IN_TOKEN}`,
      ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
    },
    socket: { setNoDelay: () => undefined, destroyed: false },
  } as unknown as HttpRequest;
}

export const quietLogger = { warn: () => undefined } as unknown as Logger;

export const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
