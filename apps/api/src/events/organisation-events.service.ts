import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { auditEntriesAfter, auditHead, auditHeads } from '@interlock/audit';
import type { Permission } from '@interlock/domain';
import { sseEvent } from '../http/sse-event.util';
import { NotificationBus } from '../notifications/notification-bus';
import type { FeedCursor, FeedOutput, FeedStart, StreamFeed } from '../notifications/stream-feed';
import {
  decodeOrganisationAnnouncement,
  ORGANISATION_EVENTS_CHANNEL,
} from './organisation-events-channel';
import {
  eventFrames,
  INTERRUPT_EVENT_ACTIONS,
  SESSION_EVENT_ACTIONS,
} from './organisation-event.util';

export interface OrganisationEventsOptions {
  /** Heartbeat interval; each heartbeat re-checks the member and catches the stream up. */
  heartbeatMs: number;
  /** Audit entries read per query while catching a stream up. */
  batchSize: number;
  /** A Last-Event-ID further behind than this many audit entries gets `reset`, not a replay. */
  maxReplay: number;
}

export const ORGANISATION_EVENTS_OPTIONS = Symbol('ORGANISATION_EVENTS_OPTIONS');
export const DEFAULT_ORGANISATION_EVENTS_OPTIONS: OrganisationEventsOptions = {
  heartbeatMs: 15_000,
  batchSize: 200,
  maxReplay: 10_000,
};

/** Where one member's stream stands (its key is the organisation). */
export interface OrganisationEventsCursor extends FeedCursor {
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
 * wakes the streams, which read what they have not sent from the audit log (through its owner,
 * libs/audit) — a lost one is caught up at the next heartbeat.
 *
 * The feed's side only: the HTTP layer (`SseStreams`, owned by OrganisationEventsController)
 * holds the responses, the heartbeats and the member's sign-in.
 */
@Injectable()
export class OrganisationEventsService implements StreamFeed<OrganisationEventsCursor> {
  readonly name = 'organisation events';
  readonly heartbeatMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: NotificationBus,
    @Inject(ORGANISATION_EVENTS_OPTIONS) private readonly options: OrganisationEventsOptions,
  ) {
    this.heartbeatMs = options.heartbeatMs;
  }

  /**
   * A member's stream starts after `lastEventId`, or after the current head when there is none;
   * one too far behind (or ahead) starts at the head with a `reset` event.
   */
  async start(
    organisationId: string,
    permissions: ReadonlySet<Permission>,
    lastEventId: number | undefined,
  ): Promise<FeedStart<OrganisationEventsCursor>> {
    const head = await auditHead(this.dataSource, organisationId);
    const replayable =
      lastEventId !== undefined &&
      lastEventId <= head &&
      head - lastEventId <= this.options.maxReplay;
    const start = replayable ? (lastEventId as number) : head;
    const first = lastEventId === undefined || replayable ? 'ready' : 'reset';
    return {
      kind: 'open',
      cursor: {
        organisationId,
        key: organisationId,
        lastSeq: start,
        withSessions: permissions.has('session.read'),
      },
      first: sseEvent(first, { seq: start }, start),
    };
  }

  watch(wake: (key: string) => void, resync: () => void): () => void {
    const offs = [
      this.bus.subscribe(ORGANISATION_EVENTS_CHANNEL, (payload) => {
        const organisationId = decodeOrganisationAnnouncement(payload);
        if (organisationId !== undefined) wake(organisationId);
      }),
      this.bus.onResync(resync),
    ];
    return () => offs.forEach((off) => off());
  }

  /** The streams behind their organisation's head: one read of every organisation's head. */
  async pending(
    listeners: readonly OrganisationEventsCursor[],
  ): Promise<readonly OrganisationEventsCursor[]> {
    if (listeners.length === 0) return [];
    const heads = await auditHeads(
      this.dataSource,
      listeners.map((l) => l.organisationId),
    );
    return listeners.filter((l) => l.lastSeq < (heads.get(l.organisationId) ?? 0));
  }

  /** Sends the events after `lastSeq` up to the head, a batch at a time. */
  async fill(listener: OrganisationEventsCursor, out: FeedOutput): Promise<void> {
    const head = await auditHead(this.dataSource, listener.organisationId);
    const actions = listener.withSessions
      ? [...INTERRUPT_EVENT_ACTIONS, ...SESSION_EVENT_ACTIONS]
      : INTERRUPT_EVENT_ACTIONS;
    while (!out.closed && listener.lastSeq < head) {
      const rows = await auditEntriesAfter(
        this.dataSource,
        listener.organisationId,
        listener.lastSeq,
        head,
        actions,
        this.options.batchSize,
      );
      // Fewer than a batch: everything up to the head has been read (the rest is other activity).
      listener.lastSeq =
        rows.length < this.options.batchSize ? head : Number(rows[rows.length - 1].seq);
      const chunk = rows.map(eventFrames).join('');
      if (chunk !== '') await out.write(chunk);
    }
  }

  /** False once the member lost interrupt.read (the route's permission); session events follow session.read. */
  mayStillWatch(listener: OrganisationEventsCursor, permissions: ReadonlySet<Permission>): boolean {
    if (!permissions.has('interrupt.read')) return false;
    listener.withSessions = permissions.has('session.read');
    return true;
  }
}
