import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import type { MemberPrincipal } from '../auth/principal';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { readSessionCookie } from '../auth/session-cookie.util';
import { sseEvent } from '../http/sse-event.util';
import { SseStream, SseStreams } from '../http/sse-streams';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { decodeOrganisationAnnouncement, ORGANISATION_EVENTS_CHANNEL } from './organisation-events-channel';
import { eventFrames, EventSourceRow, INTERRUPT_EVENT_ACTIONS, SESSION_EVENT_ACTIONS } from './organisation-event.util';

export interface OrganisationEventsOptions {
  /** Heartbeat interval; each heartbeat re-checks the member and catches the stream up. */
  heartbeatMs: number;
  /** Audit entries read per query while catching a stream up. */
  batchSize: number;
  /** A Last-Event-ID further behind than this many audit entries gets `reset`, not a replay. */
  maxReplay: number;
}

export const ORGANISATION_EVENTS_OPTIONS = Symbol('ORGANISATION_EVENTS_OPTIONS');
export const DEFAULT_ORGANISATION_EVENTS_OPTIONS: OrganisationEventsOptions = { heartbeatMs: 15_000, batchSize: 200, maxReplay: 10_000 };

interface Listener extends SseStream {
  /** The organisation (the stream's key). */
  readonly key: string;
  readonly signIn: string | undefined;
  /** The audit-log sequence number the stream has reached. */
  lastSeq: number;
  /** Holds session.read: session events are sent too. */
  withSessions: boolean;
}

/**
 * GET /api/events: the organisation's interrupt and session events as Server-Sent Events, for an
 * open inbox to update without reloading. The audit log is the durable source: each event is an
 * audit entry, its SSE id the organisation's gapless audit sequence number (entries become
 * visible in that order), so `Last-Event-ID` resumes exactly where a dropped connection left
 * off. Changes are announced on the notification bus (across instances); an announcement only
 * wakes the streams, which read what they have not sent from the database — a lost one is
 * caught up at the next heartbeat.
 */
@Injectable()
export class OrganisationEventsService implements BeforeApplicationShutdown {
  private readonly streams: SseStreams<Listener>;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    bus: NotificationBus,
    adapterHost: HttpAdapterHost,
    private readonly signIns: SignInSessionService,
    @Inject(LOGGER) logger: Logger,
    @Inject(ORGANISATION_EVENTS_OPTIONS) private readonly options: OrganisationEventsOptions,
  ) {
    this.streams = new SseStreams<Listener>(adapterHost, logger, {
      name: 'organisation events',
      heartbeatMs: options.heartbeatMs,
      fill: (listener) => this.fill(listener),
      mayStillWatch: (listener) => this.mayStillWatch(listener),
    });
    this.unsubscribe.push(
      bus.subscribe(ORGANISATION_EVENTS_CHANNEL, (payload) => {
        const organisationId = decodeOrganisationAnnouncement(payload);
        if (organisationId !== undefined) this.streams.pumpKey(organisationId);
      }),
      bus.onResync(() => this.streams.pumpAll()),
    );
  }

  get listenerCount(): number {
    return this.streams.count;
  }

  /**
   * Serves one member until the client leaves, the member loses the right to watch, or the
   * service stops. Starts after `lastEventId`, or after the current head when there is none;
   * one too far behind (or ahead) starts at the head with a `reset` event.
   */
  async open(member: MemberPrincipal, lastEventId: number | undefined, res: Response, req: Request): Promise<void> {
    this.streams.assertAccepting();
    const head = await this.head(member.organisationId);
    const replayable = lastEventId !== undefined && lastEventId <= head && head - lastEventId <= this.options.maxReplay;
    const start = replayable ? (lastEventId as number) : head;
    this.streams.begin(res, req);
    const listener: Listener = {
      key: member.organisationId,
      signIn: readSessionCookie(req),
      res,
      lastSeq: start,
      withSessions: member.permissions.has('session.read'),
      pumping: false,
      again: false,
      closed: false,
    };
    if (!this.streams.add(listener, req)) return;
    const first = lastEventId === undefined || replayable ? 'ready' : 'reset';
    res.write(`retry: 3000\n\n${sseEvent(first, { seq: start }, start)}`);
    await this.streams.pump(listener);
  }

  /** Sends the events after `lastSeq` up to the head, a batch at a time. */
  private async fill(listener: Listener): Promise<void> {
    const head = await this.head(listener.key);
    const actions = listener.withSessions ? [...INTERRUPT_EVENT_ACTIONS, ...SESSION_EVENT_ACTIONS] : INTERRUPT_EVENT_ACTIONS;
    while (!listener.closed && listener.lastSeq < head) {
      const rows: EventSourceRow[] = await this.dataSource.query(
        `SELECT seq, action, created_at, actor_type, actor_id, actor_name, target_id, target_name, metadata
           FROM audit_log_entries
          WHERE organisation_id = $1 AND seq > $2 AND seq <= $3 AND action = ANY($4::text[])
          ORDER BY seq LIMIT $5`,
        [listener.key, listener.lastSeq, head, actions, this.options.batchSize],
      );
      // Fewer than a batch: everything up to the head has been read (the rest is other activity).
      listener.lastSeq = rows.length < this.options.batchSize ? head : Number(rows[rows.length - 1].seq);
      const chunk = rows.map(eventFrames).join('');
      if (chunk !== '') await this.streams.write(listener, chunk);
    }
  }

  /** False once the member signed out, left the organisation, or lost interrupt.read; tracks session.read. */
  private async mayStillWatch(listener: Listener): Promise<boolean> {
    if (listener.signIn === undefined) return false;
    const member = await this.signIns.stillMember(listener.signIn, listener.key);
    if (member === undefined || !member.permissions.has('interrupt.read')) return false;
    listener.withSessions = member.permissions.has('session.read');
    return true;
  }

  /** The organisation's newest audit sequence number (0 before its first entry). */
  private async head(organisationId: string): Promise<number> {
    const [row]: { last_seq: string }[] = await this.dataSource.query(
      `SELECT last_seq FROM audit_log_heads WHERE organisation_id = $1`,
      [organisationId],
    );
    return row === undefined ? 0 : Number(row.last_seq);
  }

  beforeApplicationShutdown(): void {
    this.streams.closeAll();
    for (const off of this.unsubscribe) off();
  }
}
