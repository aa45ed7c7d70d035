import { DomainError } from '@interlock/domain';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import type { MemberPrincipal } from '../auth/principal';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { readSessionCookie } from '../auth/session-cookie.util';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { decodeSessionChange, LIVE_VIEW_CHANNEL } from './live-view-channel';
import { SessionRow, toSessionResponse } from './session-record';
import { SessionsRepository } from './sessions.repository';
import { sseEvent } from '../http/sse-event.util';
import { SseStream, SseStreams } from '../http/sse-streams';

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

interface Viewer extends SseStream {
  readonly organisationId: string;
  /** The viewer's sign-in (session cookie), checked again at every heartbeat. */
  readonly signIn: string | undefined;
  /** The session watched (the stream's key). */
  readonly key: string;
  /** Number of the last message sent (the SSE event id). */
  lastSeq: number;
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
  private readonly streams: SseStreams<Viewer>;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsRepository,
    bus: NotificationBus,
    adapterHost: HttpAdapterHost,
    private readonly signIns: SignInSessionService,
    @Inject(LOGGER) logger: Logger,
    @Inject(LIVE_VIEW_OPTIONS) private readonly options: LiveViewOptions,
  ) {
    this.streams = new SseStreams<Viewer>(adapterHost, logger, {
      name: 'live view',
      heartbeatMs: options.heartbeatMs,
      fill: (viewer) => this.fill(viewer),
      mayStillWatch: (viewer) => this.mayStillWatch(viewer),
    });
    this.unsubscribe.push(
      bus.subscribe(LIVE_VIEW_CHANNEL, (payload) => {
        const change = decodeSessionChange(payload);
        if (change === undefined) return;
        this.streams.pumpKey(change.sessionId, (viewer) => viewer.organisationId === change.organisationId);
      }),
      // Announcements may have been missed while the bus was down: catch everyone up.
      bus.onResync(() => this.streams.pumpAll()),
    );
  }

  get viewerCount(): number {
    return this.streams.count;
  }

  /** Serves one viewer until the session ends, the client leaves, or the service stops. */
  async open(member: MemberPrincipal, sessionId: string, lastEventId: number | undefined, res: Response, req: Request): Promise<void> {
    this.streams.assertAccepting();
    const session = await this.loadSession(member.organisationId, sessionId);
    if (session === undefined) throw DomainError.of('NOT_FOUND');
    const resumeAfter = Math.min(lastEventId ?? 0, session.message_count);
    if (session.status !== 'active' && lastEventId !== undefined && resumeAfter >= session.message_count) {
      res.status(204).end();
      return;
    }
    this.streams.begin(res, req);
    const viewer: Viewer = {
      organisationId: member.organisationId,
      signIn: readSessionCookie(req),
      key: sessionId,
      res,
      lastSeq: resumeAfter,
      pumping: false,
      again: false,
      closed: false,
    };
    if (!this.streams.add(viewer, req)) return;
    res.write(`retry: 3000\n\n${sseEvent('session', toSessionResponse(session))}`);
    await this.streams.pump(viewer);
  }

  /** Sends the viewer what it has not seen: messages after `lastSeq`, then the end, if any. */
  private async fill(viewer: Viewer): Promise<void> {
    // Status first: messages appended before an end are committed before it.
    const session = await this.loadSession(viewer.organisationId, viewer.key);
    if (session === undefined) return this.streams.close(viewer);
    while (!viewer.closed && viewer.lastSeq < session.message_count) {
      const rows = await this.sessions.messagesAfter(this.dataSource, viewer.organisationId, viewer.key, viewer.lastSeq, this.options.batchSize);
      if (rows.length === 0) break;
      const chunk = rows
        .map((m) => sseEvent('message', { seq: m.seq, role: m.role, content: m.content, createdAt: m.created_at.toISOString() }, m.seq))
        .join('');
      viewer.lastSeq = rows[rows.length - 1].seq;
      await this.streams.write(viewer, chunk);
    }
    // A finished session's stream ends with its final record, once every message is out.
    if (!viewer.closed && session.status !== 'active' && viewer.lastSeq >= session.message_count) {
      await this.streams.write(viewer, sseEvent('session', toSessionResponse(session)));
      this.streams.close(viewer);
    }
  }

  /** False once the viewer signed out, left the organisation, or lost session.read (the route's permission). */
  private async mayStillWatch(viewer: Viewer): Promise<boolean> {
    if (viewer.signIn === undefined) return false;
    const member = await this.signIns.stillMember(viewer.signIn, viewer.organisationId);
    return member !== undefined && member.permissions.has('session.read');
  }

  private loadSession(organisationId: string, sessionId: string): Promise<SessionRow | undefined> {
    return this.sessions.read(this.dataSource, organisationId, sessionId);
  }

  beforeApplicationShutdown(): void {
    this.streams.closeAll();
    for (const off of this.unsubscribe) off();
  }
}
