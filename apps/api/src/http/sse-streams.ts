import type { Server } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '@interlock/domain';
import { SSE_HEARTBEAT } from './sse-event.util';

/** One open Server-Sent Events response, addressed by `key` (what announcements name). */
export interface SseStream {
  readonly key: string;
  readonly res: Response;
  pumping: boolean;
  /** A change arrived while pumping: pump again. */
  again: boolean;
  closed: boolean;
}

export interface SseStreamsOptions<S extends SseStream> {
  /** What the streams are, for log lines. */
  name: string;
  /** Heartbeat comment interval; each heartbeat also re-checks the right to watch and catches up. */
  heartbeatMs: number;
  /** Sends the stream what it has not seen yet (may close it). Called one at a time per stream. */
  fill(stream: S): Promise<void>;
  /** False once the stream's member may no longer watch: the stream is then closed. */
  mayStillWatch(stream: S): Promise<boolean>;
}

/** How often to check whether the server has stopped listening (a graceful shutdown began). */
const SHUTDOWN_WATCH_MS = 250;
/** A client that does not read for this long is dropped (it can resume with Last-Event-ID). */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * The open SSE responses of one kind (the Live View, the organisation's events): their headers,
 * one pump at a time per stream (a change arriving meanwhile makes it go round again), writes
 * that wait for a slow client to drain, heartbeats that re-check the viewer and catch it up,
 * and closing every stream once the server stops listening — streams never end by themselves,
 * and main.ts waits for open connections before it exits.
 */
export class SseStreams<S extends SseStream> {
  private readonly streams = new Map<string, Set<S>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private shutdownWatch: NodeJS.Timeout | undefined;
  private server: Server | undefined;
  private stopping = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: Logger,
    private readonly options: SseStreamsOptions<S>,
  ) {}

  get count(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** Refuses new streams once a shutdown began (503: the client reconnects elsewhere). */
  assertAccepting(): void {
    if (this.stopping) throw new DomainError('SERVICE_UNAVAILABLE', 'The service is restarting; reconnect shortly.');
  }

  /** Answers 200 with the event-stream headers, flushed at once. */
  begin(res: Response, req: Request): void {
    res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // One stream per connection: when it ends, so does the connection (no idle socket to
      // hold up a graceful shutdown).
      connection: 'close',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
  }

  /** Registers a stream (forgotten when its client leaves); false when the client already left. */
  add(stream: S, req: Request): boolean {
    const set = this.streams.get(stream.key) ?? new Set<S>();
    this.streams.set(stream.key, set);
    set.add(stream);
    this.startTimers();
    stream.res.on('close', () => this.remove(stream));
    if (req.socket.destroyed) {
      this.remove(stream);
      return false;
    }
    return true;
  }

  /** Pumps every stream addressed by `key` that `which` accepts. */
  pumpKey(key: string, which: (stream: S) => boolean = () => true): void {
    for (const stream of this.streams.get(key) ?? []) if (which(stream)) void this.pump(stream);
  }

  /** Pumps every stream (announcements may have been missed). */
  pumpAll(): void {
    this.forEach((stream) => void this.pump(stream));
  }

  /** Fills the stream, one pump at a time; a failure closes it (the client resumes). */
  async pump(stream: S): Promise<void> {
    if (stream.closed) return;
    if (stream.pumping) {
      stream.again = true;
      return;
    }
    stream.pumping = true;
    try {
      do {
        stream.again = false;
        await this.options.fill(stream);
      } while (stream.again && !stream.closed);
    } catch (error) {
      this.logger.warn({ err: error, stream: this.options.name, key: stream.key }, 'event stream failed');
      this.close(stream);
    } finally {
      stream.pumping = false;
    }
  }

  /** Writes, waiting for the client to drain its buffer when it is slow. */
  async write(stream: S, chunk: string): Promise<void> {
    if (stream.closed || stream.res.write(chunk)) return;
    const drained = await new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        stream.res.off('drain', onDrain);
        stream.res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => done(false), DRAIN_TIMEOUT_MS);
      stream.res.on('drain', onDrain);
      stream.res.on('close', onClose);
    });
    if (!drained) this.close(stream);
  }

  close(stream: S): void {
    this.remove(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  /** Closes every stream and stops the timers (the application is shutting down). */
  closeAll(): void {
    this.stopping = true;
    this.forEach((stream) => this.close(stream));
    this.stopTimers();
  }

  /** A heartbeat: the comment, the viewer's right to watch checked again, and a catch-up. */
  private async beat(stream: S): Promise<void> {
    if (!stream.pumping) stream.res.write(SSE_HEARTBEAT);
    let allowed: boolean;
    try {
      allowed = await this.options.mayStillWatch(stream);
    } catch (error) {
      // The database is unreachable: keep the stream, the next heartbeat decides.
      this.logger.warn({ err: error, stream: this.options.name }, 'event stream could not check a viewer');
      allowed = true;
    }
    if (!allowed) return this.close(stream);
    await this.pump(stream);
  }

  private remove(stream: S): void {
    stream.closed = true;
    const set = this.streams.get(stream.key);
    set?.delete(stream);
    if (set?.size === 0) this.streams.delete(stream.key);
    if (this.streams.size === 0) this.stopTimers();
  }

  private forEach(fn: (stream: S) => void): void {
    for (const set of [...this.streams.values()]) for (const stream of [...set]) fn(stream);
  }

  private startTimers(): void {
    if (this.heartbeat === undefined) {
      this.heartbeat = setInterval(() => this.forEach((stream) => void this.beat(stream)), this.options.heartbeatMs);
      this.heartbeat.unref();
    }
    if (this.shutdownWatch === undefined) {
      const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
      this.server = server?.listening ? server : undefined;
      this.shutdownWatch = setInterval(() => {
        if (this.server !== undefined && !this.server.listening) this.closeAll();
      }, SHUTDOWN_WATCH_MS);
      this.shutdownWatch.unref();
    }
  }

  private stopTimers(): void {
    clearInterval(this.heartbeat);
    clearInterval(this.shutdownWatch);
    this.heartbeat = undefined;
    this.shutdownWatch = undefined;
  }
}
