import { DomainError, type Permission } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationBus } from '../notifications/notification-bus';
import type { FeedCursor, FeedOutput, FeedStart, StreamFeed } from '../notifications/stream-feed';
import { sseEvent } from '../http/sse-event.util';
import { decodeSessionChange, LIVE_VIEW_CHANNEL } from './live-view-channel';
import { SessionRow, toSessionResponse } from './session-record';
import { SessionsRepository } from './sessions.repository';

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

/** Where one viewer stands: the session watched (the key) and the number of the last message sent (the SSE event id). */
export interface LiveViewCursor extends FeedCursor {
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
 *
 * The feed's side only: the HTTP layer (`SseStreams`, owned by SessionsController) holds the
 * responses, the heartbeats and the viewer's sign-in.
 */
@Injectable()
export class LiveViewService implements StreamFeed<LiveViewCursor> {
  readonly name = 'live view';
  readonly heartbeatMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly bus: NotificationBus,
    @Inject(LIVE_VIEW_OPTIONS) private readonly options: LiveViewOptions,
  ) {
    this.heartbeatMs = options.heartbeatMs;
  }

  /** A viewer of the organisation's session starts after `lastEventId`; 404 for a session that is not the organisation's. */
  async start(
    organisationId: string,
    sessionId: string,
    lastEventId: number | undefined,
  ): Promise<FeedStart<LiveViewCursor>> {
    const session = await this.loadSession(organisationId, sessionId);
    if (session === undefined) throw DomainError.of('NOT_FOUND');
    const resumeAfter = Math.min(lastEventId ?? 0, session.message_count);
    if (
      session.status !== 'active' &&
      lastEventId !== undefined &&
      resumeAfter >= session.message_count
    )
      return { kind: 'finished' };
    return {
      kind: 'open',
      cursor: { organisationId, key: sessionId, lastSeq: resumeAfter },
      first: sseEvent('session', toSessionResponse(session)),
    };
  }

  watch(
    wake: (key: string, which?: (cursor: LiveViewCursor) => boolean) => void,
    resync: () => void,
  ): () => void {
    const offs = [
      this.bus.subscribe(LIVE_VIEW_CHANNEL, (payload) => {
        const change = decodeSessionChange(payload);
        if (change === undefined) return;
        wake(change.sessionId, (viewer) => viewer.organisationId === change.organisationId);
      }),
      // Announcements may have been missed while the bus was down: catch everyone up.
      this.bus.onResync(resync),
    ];
    return () => offs.forEach((off) => off());
  }

  /** The viewers behind their session, or whose session ended or is gone: one read of every watched session. */
  async pending(viewers: readonly LiveViewCursor[]): Promise<readonly LiveViewCursor[]> {
    if (viewers.length === 0) return [];
    const unique = new Map<string, { organisationId: string; id: string }>();
    for (const v of viewers)
      unique.set(`${v.organisationId} ${v.key}`, { organisationId: v.organisationId, id: v.key });
    const rows = await this.sessions.positions(this.dataSource, [...unique.values()]);
    const at = new Map(rows.map((r) => [`${r.organisation_id} ${r.id}`, r]));
    return viewers.filter((v) => {
      const session = at.get(`${v.organisationId} ${v.key}`);
      return (
        session === undefined || session.status !== 'active' || v.lastSeq < session.message_count
      );
    });
  }

  /** Sends the viewer what it has not seen: messages after `lastSeq`, then the end, if any. */
  async fill(viewer: LiveViewCursor, out: FeedOutput): Promise<void> {
    // Status first: messages appended before an end are committed before it.
    const session = await this.loadSession(viewer.organisationId, viewer.key);
    if (session === undefined) return out.close();
    while (!out.closed && viewer.lastSeq < session.message_count) {
      const rows = await this.sessions.messagesAfter(
        this.dataSource,
        viewer.organisationId,
        viewer.key,
        viewer.lastSeq,
        this.options.batchSize,
      );
      if (rows.length === 0) break;
      const chunk = rows
        .map((m) =>
          sseEvent(
            'message',
            { seq: m.seq, role: m.role, content: m.content, createdAt: m.created_at.toISOString() },
            m.seq,
          ),
        )
        .join('');
      viewer.lastSeq = rows[rows.length - 1].seq;
      await out.write(chunk);
    }
    // A finished session's stream ends with its final record, once every message is out.
    if (!out.closed && session.status !== 'active' && viewer.lastSeq >= session.message_count) {
      await out.write(sseEvent('session', toSessionResponse(session)));
      out.close();
    }
  }

  /** The route's permission: a viewer who lost session.read is dropped. */
  mayStillWatch(_viewer: LiveViewCursor, permissions: ReadonlySet<Permission>): boolean {
    return permissions.has('session.read');
  }

  private loadSession(organisationId: string, sessionId: string): Promise<SessionRow | undefined> {
    return this.sessions.read(this.dataSource, organisationId, sessionId);
  }
}
