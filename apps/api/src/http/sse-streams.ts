import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { DomainError, type Permission } from '@interlock/domain';
import { signInTokenOf } from '../auth/principal';
import { readSessionCookie } from '../auth/session-cookie.util';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { LOGGER } from '../logging/logger.module';
import { StreamAdmission, type StreamHolder } from '../notifications/stream-admission';
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
  /** Gives back the stream's slot under the caps (once). */
  readonly release: () => void;
  pumping: boolean;
  /** A change arrived while pumping: pump again. */
  again: boolean;
  closed: boolean;
}

/**
 * What the streams need of the sign-in: for each (cookie token, organisation), the member's
 * permissions as they are now, or undefined once gone — all of a heartbeat's streams in one query.
 */
export interface SignInCheck {
  stillMembers(
    checks: readonly { token: string; organisationId: string }[],
  ): Promise<(ReadonlySet<Permission> | undefined)[]>;
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
  /** A heartbeat is under way (its queries have not answered): the next one is skipped. */
  private beating = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: Logger,
    private readonly signIns: SignInCheck,
    private readonly feed: StreamFeed<C>,
    private readonly admission: Pick<StreamAdmission, 'admit'>,
  ) {
    this.unwatch = feed.watch(
      (key, which) => this.pumpKey(key, which),
      () => this.pumpAll(),
    );
  }

  /**
   * Serves one member's stream: reads the `Last-Event-ID` to resume after (400 with
   * `invalidLastEventId` when it is not a non-negative integer), refuses the stream when shutting
   * down (503) or past a cap (`StreamAdmission`: 429, or 503 for the instance's), lets the feed start it — which may throw the feed's refusal, or say nothing more
   * will come (204) — then answers 200 with the event-stream headers and pumps until the client
   * leaves, the member may no longer watch, or the server stops.
   */
  async serve(
    req: HttpRequest,
    reply: HttpResponse,
    holder: StreamHolder,
    invalidLastEventId: string,
    start: (lastEventId: number | undefined) => Promise<FeedStart<C>>,
  ): Promise<void> {
    const lastEventId = parseLastEventId(req.headers['last-event-id'] as string | undefined);
    if (lastEventId === 'invalid') throw new DomainError('VALIDATION_FAILED', invalidLastEventId);
    this.assertAccepting();
    // The slot is taken before the feed's first query, so a flood of opens cannot queue queries past the caps.
    const release = this.admission.admit(holder);
    let started: FeedStart<C>;
    try {
      started = await start(lastEventId);
    } catch (error) {
      release();
      throw error;
    }
    if (started.kind === 'finished') {
      release();
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
      signIn: signInTokenOf(req) ?? readSessionCookie(req),
      out: {
        get closed() {
          return stream.closed;
        },
        write: (chunk) => this.write(stream, chunk),
        close: () => this.close(stream),
      },
      release,
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
    if (this.stopping)
      throw new DomainError('SERVICE_UNAVAILABLE', 'The service is restarting; reconnect shortly.');
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
    for (const stream of this.streams.get(key) ?? [])
      if (which(stream.cursor)) void this.pump(stream);
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
      this.logger.warn(
        { err: error, stream: this.feed.name, key: stream.key },
        'event stream failed',
      );
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

  /**
   * A heartbeat of every stream: the comment; every viewer's right to watch checked again, all
   * in one query (closed once the member signed out, left the organisation, or — the feed says —
   * lost what the stream needs); then where every remaining stream's key stands, in one more
   * query, and a catch-up of only those with something to send (an announcement was lost).
   * Two pool queries per heartbeat however many streams are open (BENCHMARKS.md).
   */
  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      const streams: SseStream<C>[] = [];
      this.forEach((stream) => {
        if (!stream.pumping) stream.res.write(SSE_HEARTBEAT);
        if (stream.signIn === undefined) this.close(stream);
        else streams.push(stream);
      });
      const watching = await this.stillWatching(streams);
      let due: readonly C[];
      try {
        due = await this.feed.pending(watching.map((stream) => stream.cursor));
      } catch (error) {
        // The database is unreachable: keep the streams; the next heartbeat catches them up.
        this.logger.warn(
          { err: error, stream: this.feed.name },
          'event stream could not check where its streams stand',
        );
        return;
      }
      const byCursor = new Map(watching.map((stream) => [stream.cursor, stream] as const));
      for (const cursor of due) {
        const stream = byCursor.get(cursor);
        if (stream !== undefined) void this.pump(stream);
      }
    } finally {
      this.beating = false;
    }
  }

  /** The streams whose viewers may still watch; the others are closed. */
  private async stillWatching(streams: SseStream<C>[]): Promise<SseStream<C>[]> {
    if (streams.length === 0) return [];
    let members: (ReadonlySet<Permission> | undefined)[];
    try {
      members = await this.signIns.stillMembers(
        streams.map((s) => ({
          token: s.signIn as string,
          organisationId: s.cursor.organisationId,
        })),
      );
    } catch (error) {
      // The database is unreachable: keep the streams, the next heartbeat decides.
      this.logger.warn(
        { err: error, stream: this.feed.name },
        'event stream could not check its viewers',
      );
      return streams;
    }
    return streams.filter((stream, i) => {
      const permissions = members[i];
      if (stream.closed) return false;
      if (permissions !== undefined && this.feed.mayStillWatch(stream.cursor, permissions))
        return true;
      this.close(stream);
      return false;
    });
  }

  private remove(stream: SseStream<C>): void {
    stream.closed = true;
    stream.release();
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
      this.heartbeat = setInterval(() => void this.beat(), this.feed.heartbeatMs);
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
    private readonly admission: StreamAdmission,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  for<C extends FeedCursor>(feed: StreamFeed<C>): SseStreams<C> {
    const streams = new SseStreams(
      this.adapterHost,
      this.logger,
      this.signIns,
      feed,
      this.admission,
    );
    this.made.push(streams as unknown as SseStreams<FeedCursor>);
    return streams;
  }

  beforeApplicationShutdown(): void {
    for (const streams of this.made) streams.closeAll();
  }
}
