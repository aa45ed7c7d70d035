import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import type { MemberPrincipal } from '../auth/principal';
import { SessionService } from '../auth/session.service';
import { readSessionCookie } from '../auth/session-cookie.util';
import { ApiError } from '../http/api-error';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { decodeSessionChange, LIVE_VIEW_CHANNEL } from './live-view-channel';
import { SESSION_COLUMNS, SessionRow, toSessionResponse } from './session-record';
import { SSE_HEARTBEAT, sseEvent } from './sse-event.util';

export interface LiveViewOptions {
  /**
   * Heartbeat comment interval. Each heartbeat also checks that the viewer is still signed in
   * with session.read, and catches it up from the database.
   */
  heartbeatMs: number;
  /** Messages read per query while catching a viewer up. */
  batchSize: number;
}

export const LIVE_VIEW_OPTIONS = Symbol('LIVE_VIEW_OPTIONS');
export const DEFAULT_LIVE_VIEW_OPTIONS: LiveViewOptions = { heartbeatMs: 15_000, batchSize: 200 };

/** How often to check whether the server has stopped listening (a graceful shutdown began). */
const SHUTDOWN_WATCH_MS = 250;
/** A viewer that does not read for this long is dropped (it can resume with Last-Event-ID). */
const DRAIN_TIMEOUT_MS = 30_000;

interface Viewer {
  readonly organisationId: string;
  /** The viewer's sign-in (session cookie), checked again at every heartbeat. */
  readonly signIn: string | undefined;
  readonly sessionId: string;
  readonly res: Response;
  /** Number of the last message sent (the SSE event id). */
  lastSeq: number;
  pumping: boolean;
  /** A change arrived while pumping: pump again. */
  again: boolean;
  closed: boolean;
}

interface MessageRow {
  seq: number;
  role: string;
  content: string;
  created_at: Date;
}

/**
 * The Live View (SPEC §6): a session as Server-Sent Events — its messages so far, then each new
 * one as it is appended on any instance. Appends are announced on the notification bus
 * (LISTEN/NOTIFY, or in process on the embedded database) with the session's new message count;
 * each viewer then reads what it has not sent yet from the database, so nothing depends on the
 * announcement's size and a viewer that fell behind, or an announcement that was lost, is caught
 * up by the next heartbeat. Event ids are message numbers: a reconnecting client's
 * `Last-Event-ID` resumes after the last message it saw. When the session ends the stream says
 * so and closes; reconnecting to it then answers 204, which tells EventSource to stop.
 */
@Injectable()
export class LiveViewService implements BeforeApplicationShutdown {
  private readonly viewers = new Map<string, Set<Viewer>>();
  private readonly unsubscribe: (() => void)[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private shutdownWatch: NodeJS.Timeout | undefined;
  private server: Server | undefined;
  private stopping = false;

  constructor(
    private readonly dataSource: DataSource,
    bus: NotificationBus,
    private readonly adapterHost: HttpAdapterHost,
    private readonly signIns: SessionService,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(LIVE_VIEW_OPTIONS) private readonly options: LiveViewOptions,
  ) {
    this.unsubscribe.push(
      bus.subscribe(LIVE_VIEW_CHANNEL, (payload) => {
        const change = decodeSessionChange(payload);
        if (change === undefined) return;
        for (const viewer of this.viewers.get(change.sessionId) ?? []) {
          if (viewer.organisationId === change.organisationId) void this.pump(viewer);
        }
      }),
      // Announcements may have been missed while the bus was down: catch everyone up.
      bus.onResync(() => this.forEachViewer((viewer) => void this.pump(viewer))),
    );
  }

  get viewerCount(): number {
    let n = 0;
    for (const set of this.viewers.values()) n += set.size;
    return n;
  }

  /** Serves one viewer until the session ends, the client leaves, or the service stops. */
  async open(member: MemberPrincipal, sessionId: string, lastEventId: number | undefined, res: Response, req: Request): Promise<void> {
    if (this.stopping) throw new ApiError('SERVICE_UNAVAILABLE', 'The service is restarting; reconnect shortly.');
    const session = await this.loadSession(member.organisationId, sessionId);
    if (session === undefined) throw ApiError.of('NOT_FOUND');
    const resumeAfter = Math.min(lastEventId ?? 0, session.message_count);
    if (session.status !== 'active' && lastEventId !== undefined && resumeAfter >= session.message_count) {
      res.status(204).end();
      return;
    }
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
    const viewer: Viewer = {
      organisationId: member.organisationId,
      signIn: readSessionCookie(req),
      sessionId,
      res,
      lastSeq: resumeAfter,
      pumping: false,
      again: false,
      closed: false,
    };
    this.add(viewer);
    res.on('close', () => this.remove(viewer));
    if (req.socket.destroyed) return this.remove(viewer);
    res.write(`retry: 3000\n\n${sseEvent('session', toSessionResponse(session))}`);
    await this.pump(viewer);
  }

  /**
   * Sends the viewer what it has not seen: messages after `lastSeq`, then the end, if any.
   * One pump per viewer at a time; a change arriving meanwhile makes it go round again.
   */
  private async pump(viewer: Viewer): Promise<void> {
    if (viewer.closed) return;
    if (viewer.pumping) {
      viewer.again = true;
      return;
    }
    viewer.pumping = true;
    try {
      do {
        viewer.again = false;
        // Status first: messages appended before an end are committed before it.
        const session = await this.loadSession(viewer.organisationId, viewer.sessionId);
        if (session === undefined) return this.close(viewer);
        while (!viewer.closed && viewer.lastSeq < session.message_count) {
          const rows: MessageRow[] = await this.dataSource.query(
            `SELECT seq, role, content, created_at FROM session_messages
              WHERE organisation_id = $1 AND session_id = $2 AND seq > $3
              ORDER BY seq LIMIT $4`,
            [viewer.organisationId, viewer.sessionId, viewer.lastSeq, this.options.batchSize],
          );
          if (rows.length === 0) break;
          const chunk = rows
            .map((m) => sseEvent('message', { seq: m.seq, role: m.role, content: m.content, createdAt: m.created_at.toISOString() }, m.seq))
            .join('');
          viewer.lastSeq = rows[rows.length - 1].seq;
          await this.write(viewer, chunk);
        }
        // A finished session's stream ends with its final record, once every message is out.
        if (!viewer.closed && session.status !== 'active' && viewer.lastSeq >= session.message_count) {
          await this.write(viewer, sseEvent('session', toSessionResponse(session)));
          return this.close(viewer);
        }
      } while (viewer.again && !viewer.closed);
    } catch (error) {
      // The client reconnects with Last-Event-ID and resumes where this left off.
      this.logger.warn({ err: error, sessionId: viewer.sessionId }, 'live view stream failed');
      this.close(viewer);
    } finally {
      viewer.pumping = false;
    }
  }

  /** Writes, waiting for the client to drain its buffer when it is slow. */
  private async write(viewer: Viewer, chunk: string): Promise<void> {
    if (viewer.closed || viewer.res.write(chunk)) return;
    const drained = await new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        viewer.res.off('drain', onDrain);
        viewer.res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => done(false), DRAIN_TIMEOUT_MS);
      viewer.res.on('drain', onDrain);
      viewer.res.on('close', onClose);
    });
    if (!drained) this.close(viewer);
  }

  /** A heartbeat: the comment, the viewer's right to watch checked again, and a catch-up. */
  private async beat(viewer: Viewer): Promise<void> {
    if (!viewer.pumping) viewer.res.write(SSE_HEARTBEAT);
    if (!(await this.mayStillWatch(viewer))) return this.close(viewer);
    await this.pump(viewer);
  }

  /** False once the viewer signed out, was removed, or lost session.read (the route's permission). */
  private async mayStillWatch(viewer: Viewer): Promise<boolean> {
    if (viewer.signIn === undefined) return false;
    try {
      const member = await this.signIns.authenticate(viewer.signIn);
      return member !== undefined && member.organisationId === viewer.organisationId && member.permissions.has('session.read');
    } catch (error) {
      // The database is unreachable: keep the stream, the next heartbeat decides.
      this.logger.warn({ err: error }, 'live view could not check a viewer');
      return true;
    }
  }

  private add(viewer: Viewer): void {
    const set = this.viewers.get(viewer.sessionId) ?? new Set<Viewer>();
    this.viewers.set(viewer.sessionId, set);
    set.add(viewer);
    this.startTimers();
  }

  private remove(viewer: Viewer): void {
    viewer.closed = true;
    const set = this.viewers.get(viewer.sessionId);
    set?.delete(viewer);
    if (set?.size === 0) this.viewers.delete(viewer.sessionId);
    if (this.viewers.size === 0) this.stopTimers();
  }

  private close(viewer: Viewer): void {
    this.remove(viewer);
    if (!viewer.res.writableEnded) viewer.res.end();
  }

  private forEachViewer(fn: (viewer: Viewer) => void): void {
    for (const set of [...this.viewers.values()]) for (const viewer of [...set]) fn(viewer);
  }

  private startTimers(): void {
    if (this.heartbeat === undefined) {
      this.heartbeat = setInterval(() => this.forEachViewer((viewer) => void this.beat(viewer)), this.options.heartbeatMs);
      this.heartbeat.unref();
    }
    if (this.shutdownWatch === undefined) {
      // main.ts closes the HTTP server first and waits for open connections; streams never end
      // by themselves, so they are closed here once the server stops listening.
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

  private closeAll(): void {
    this.stopping = true;
    this.forEachViewer((viewer) => this.close(viewer));
    this.stopTimers();
  }

  private async loadSession(organisationId: string, sessionId: string): Promise<SessionRow | undefined> {
    const [row]: SessionRow[] = await this.dataSource.query(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE organisation_id = $1 AND id = $2`,
      [organisationId, sessionId],
    );
    return row;
  }

  beforeApplicationShutdown(): void {
    this.closeAll();
    for (const off of this.unsubscribe) off();
  }
}
