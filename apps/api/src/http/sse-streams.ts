import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { DomainError, type Permission } from '@interlock/domain';
import { readSessionCookie } from '../auth/session-cookie.util';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { LOGGER } from '../logging/logger.module';
import type { FeedCursor, FeedOutput, FeedStart, StreamFeed } from '../notifications/stream-feed';
import { type HttpRequest, type HttpResponse, nodeRequest, takeResponse } from './platform';
import { parseLastEventId, SSE_HEARTBEAT } from './sse-event.util';

/** One open Server-Sent Events response and where its feed stands. */
interface SseStream<C extends FeedCursor> {
  /** The feed's key (what announcements name). */
  readonly key: string;
  readonly cursor: C;
  readonly res: ServerResponse;
  /** The member's sign-in (the session cookie), checked again at every heartbeat. */
  readonly signIn: string | undefined;
  /** What the feed writes through. */
  readonly out: FeedOutput;
  pumping: boolean;
  /** A change arrived while pumping: pump again. */
  again: boolean;
  closed: boolean;
}

/** What the streams need of the sign-in: the member as they are now, or undefined once gone. */
export interface SignInCheck {
  stillMember(token: string, organisationId: string): Promise<{ permissions: ReadonlySet<Permission> } | undefined>;
}

/** How often to check whether the server has stopped listening (a graceful shutdown began). */
const SHUTDOWN_WATCH_MS = 250;
/** A client that does not read for this long is dropped (it can resume with Last-Event-ID). */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * The HTTP side of a live feed (the Live View, the organisation's events — `StreamFeed`, which
 * knows no HTTP): the open SSE responses, their headers, the sign-in cookie each was opened
 * with and its re-check at every heartbeat, one pump at a time per stream (a change arriving
 * meanwhile makes it go round again), writes that wait for a slow client to drain, and closing
 * every stream once the server stops listening — streams never end by themselves, and main.ts
 * waits for open connections before it exits. Made by `SseStreamsFactory` for a controller.
 */
export class SseStreams<C extends FeedCursor> {
  private readonly streams = new Map<string, Set<SseStream<C>>>();
  private readonly unwatch: () => void;
  private heartbeat: NodeJS.Timeout | undefined;
  private shutdownWatch: NodeJS.Timeout | undefined;
  private server: Server | undefined;
  private stopping = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: Logger,
    private readonly signIns: SignInCheck,
    private readonly feed: StreamFeed<C>,
  ) {
    this.unwatch = feed.watch(
      (key, which) => this.pumpKey(key, which),
      () => this.pumpAll(),
    );
  }

  /**
   * Serves one member's stream: reads the `Last-Event-ID` to resume after (400 with
   * `invalidLastEventId` when it is not a non-negative integer), refuses the stream when shutting
   * down (503), lets the feed start it — which may throw the feed's refusal, or say nothing more
   * will come (204) — then answers 200 with the event-stream headers and pumps until the client
   * leaves, the member may no longer watch, or the server stops.
   */
  async serve(
    req: HttpRequest,
    reply: HttpResponse,
    invalidLastEventId: string,
    start: (lastEventId: number | undefined) => Promise<FeedStart<C>>,
  ): Promise<void> {
    const lastEventId = parseLastEventId(req.headers['last-event-id'] as string | undefined);
    if (lastEventId === 'invalid') throw new DomainError('VALIDATION_FAILED', invalidLastEventId);
    this.assertAccepting();
    const started = await start(lastEventId);
    if (started.kind === 'finished') {
      const res = takeResponse(reply);
      res.statusCode = 204;
      res.end();
      return;
    }
    const res = takeResponse(reply);
    this.begin(res, nodeRequest(req));
    const stream: SseStream<C> = {
      key: started.cursor.key,
      cursor: started.cursor,
      res,
      signIn: readSessionCookie(req),
      out: {
        get closed() {
          return stream.closed;
        },
        write: (chunk) => this.write(stream, chunk),
        close: () => this.close(stream),
      },
      pumping: false,
      again: false,
      closed: false,
    };
    if (!this.add(stream, nodeRequest(req))) return;
    res.write(`retry: 3000\n\n${started.first}`);
    await this.pump(stream);
  }

  get count(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** Refuses new streams once a shutdown began (503: the client reconnects elsewhere). */
  private assertAccepting(): void {
    if (this.stopping) throw new DomainError('SERVICE_UNAVAILABLE', 'The service is restarting; reconnect shortly.');
  }

  /** Answers 200 with the event-stream headers, flushed at once. */
  private begin(res: ServerResponse, req: IncomingMessage): void {
    res.statusCode = 200;
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache, no-transform');
    // One stream per connection: when it ends, so does the connection (no idle socket to hold
    // up a graceful shutdown).
    res.setHeader('connection', 'close');
    res.setHeader('x-accel-buffering', 'no');
    res.flushHeaders();
    req.socket.setNoDelay(true);
  }

  /** Registers a stream (forgotten when its client leaves); false when the client already left. */
  private add(stream: SseStream<C>, req: IncomingMessage): boolean {
    const set = this.streams.get(stream.key) ?? new Set<SseStream<C>>();
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
  private pumpKey(key: string, which: (cursor: C) => boolean = () => true): void {
    for (const stream of this.streams.get(key) ?? []) if (which(stream.cursor)) void this.pump(stream);
  }

  /** Pumps every stream (announcements may have been missed). */
  private pumpAll(): void {
    this.forEach((stream) => void this.pump(stream));
  }

  /** Fills the stream, one pump at a time; a failure closes it (the client resumes). */
  private async pump(stream: SseStream<C>): Promise<void> {
    if (stream.closed) return;
    if (stream.pumping) {
      stream.again = true;
      return;
    }
    stream.pumping = true;
    try {
      do {
        stream.again = false;
        await this.feed.fill(stream.cursor, stream.out);
      } while (stream.again && !stream.closed);
    } catch (error) {
      this.logger.warn({ err: error, stream: this.feed.name, key: stream.key }, 'event stream failed');
      this.close(stream);
    } finally {
      stream.pumping = false;
    }
  }

  /** Writes, waiting for the client to drain its buffer when it is slow. */
  private async write(stream: SseStream<C>, chunk: string): Promise<void> {
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

  private close(stream: SseStream<C>): void {
    this.remove(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  /** Closes every stream and stops the timers (the application is shutting down). */
  closeAll(): void {
    if (!this.stopping) this.unwatch();
    this.stopping = true;
    this.forEach((stream) => this.close(stream));
    this.stopTimers();
  }

  /** A heartbeat: the comment, the viewer's right to watch checked again, and a catch-up. */
  private async beat(stream: SseStream<C>): Promise<void> {
    if (!stream.pumping) stream.res.write(SSE_HEARTBEAT);
    let allowed: boolean;
    try {
      allowed = await this.mayStillWatch(stream);
    } catch (error) {
      // The database is unreachable: keep the stream, the next heartbeat decides.
      this.logger.warn({ err: error, stream: this.feed.name }, 'event stream could not check a viewer');
      allowed = true;
    }
    if (!allowed) return this.close(stream);
    await this.pump(stream);
  }

  /** False once the member signed out, left the organisation, or (the feed says) lost what the stream needs. */
  private async mayStillWatch(stream: SseStream<C>): Promise<boolean> {
    if (stream.signIn === undefined) return false;
    const member = await this.signIns.stillMember(stream.signIn, stream.cursor.organisationId);
    return member !== undefined && this.feed.mayStillWatch(stream.cursor, member.permissions);
  }

  private remove(stream: SseStream<C>): void {
    stream.closed = true;
    const set = this.streams.get(stream.key);
    set?.delete(stream);
    if (set?.size === 0) this.streams.delete(stream.key);
    if (this.streams.size === 0) this.stopTimers();
  }

  private forEach(fn: (stream: SseStream<C>) => void): void {
    for (const set of [...this.streams.values()]) for (const stream of [...set]) fn(stream);
  }

  private startTimers(): void {
    if (this.heartbeat === undefined) {
      this.heartbeat = setInterval(() => this.forEach((stream) => void this.beat(stream)), this.feed.heartbeatMs);
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

/**
 * Makes each feed's `SseStreams` with what every stream needs — the HTTP server (to notice a
 * shutdown), the sign-in check, the logger — and closes them all when the application shuts
 * down. A controller that serves a feed asks it once, in its constructor.
 */
@Injectable()
export class SseStreamsFactory implements BeforeApplicationShutdown {
  private readonly made: SseStreams<FeedCursor>[] = [];

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly signIns: SignInSessionService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  for<C extends FeedCursor>(feed: StreamFeed<C>): SseStreams<C> {
    const streams = new SseStreams(this.adapterHost, this.logger, this.signIns, feed);
    this.made.push(streams as unknown as SseStreams<FeedCursor>);
    return streams;
  }

  beforeApplicationShutdown(): void {
    for (const streams of this.made) streams.closeAll();
  }
}
