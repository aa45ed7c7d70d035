import type { HttpAdapterHost } from '@nestjs/core';
import type { HttpResponse } from '../http/platform';
import type { DataSource } from 'typeorm';
import type { Permission } from '@interlock/domain';
import type { SignInCheck } from '../http/sse-streams';
import { SseStreams } from '../http/sse-streams';
import { FakeResponse, quietLogger, streamRequest, tick } from '../http/sse-streams.spec-support';
import { eventually } from '../testing/eventually';
import { InProcessNotificationBus } from '../notifications/notification-bus';
import type { EventSourceRow } from './organisation-event.util';
import { ORGANISATION_EVENTS_CHANNEL } from './organisation-events-channel';
import { OrganisationEventsCursor, OrganisationEventsService } from './organisation-events.service';

const ORG = '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10';

/** An in-memory audit log: its head and entries, as the two queries of the stream read them. */
class FakeAuditLog {
  entries: EventSourceRow[] = [];
  queries = 0;

  add(action: string, metadata: Record<string, unknown> = {}): number {
    const seq = this.entries.length + 1;
    this.entries.push({
      seq: String(seq),
      action,
      created_at: new Date(),
      actor_type: 'api_key',
      actor_id: 'k',
      actor_name: 'agent',
      target_id: `t${seq}`,
      target_name: `target ${seq}`,
      metadata,
    });
    return seq;
  }

  async query(sql: string, params: unknown[]): Promise<unknown[]> {
    this.queries++;
    if (Array.isArray(params[0])) {
      // Every organisation's head at once (the heartbeat).
      return (params[0] as string[]).includes(ORG) && this.entries.length > 0
        ? [{ organisation_id: ORG, last_seq: String(this.entries.length) }]
        : [];
    }
    if (params[0] !== ORG) return [];
    if (sql.includes('FROM audit_log_heads'))
      return this.entries.length === 0 ? [] : [{ last_seq: String(this.entries.length) }];
    const [, after, head, actions, limit] = params as [string, number, number, string[], number];
    return this.entries
      .filter((e) => Number(e.seq) > after && Number(e.seq) <= head && actions.includes(e.action))
      .slice(0, limit);
  }
}

const logger = quietLogger;

describe('OrganisationEventsService', () => {
  let log: FakeAuditLog;
  let bus: InProcessNotificationBus;
  let permissions: Set<string> | undefined;
  let events: SseStreams<OrganisationEventsCursor>;
  let feed: OrganisationEventsService;
  let signInCalls = 0;

  beforeEach(() => {
    log = new FakeAuditLog();
    bus = new InProcessNotificationBus();
    permissions = new Set(['interrupt.read', 'session.read']);
    const signIns = {
      stillMembers: async (checks: { token: string; organisationId: string }[]) =>
        (signInCalls++, checks).map(({ organisationId }) =>
          permissions === undefined || organisationId !== ORG ? undefined : permissions,
        ),
    } as unknown as SignInCheck;
    const adapterHost = {
      httpAdapter: { getHttpServer: () => ({ listening: true }) },
    } as unknown as HttpAdapterHost;
    // The feed (the service) behind the HTTP layer's streams, as OrganisationEventsController wires them.
    feed = new OrganisationEventsService(log as unknown as DataSource, bus, {
      heartbeatMs: 40,
      batchSize: 2,
      maxReplay: 5,
    });
    events = new SseStreams(adapterHost, logger, signIns, feed, { admit: () => () => undefined });
  });
  afterEach(() => events.closeAll());

  const open = async (lastEventId?: number, held = ['interrupt.read', 'session.read']) => {
    const res = new FakeResponse();
    await events.serve(
      streamRequest(lastEventId),
      res as unknown as HttpResponse,
      { memberId: 'u1', organisationId: ORG },
      'Last-Event-ID must be the id of an event of this stream (a non-negative integer).',
      (after) => feed.start(ORG, new Set(held as Permission[]), after),
    );
    return res;
  };
  const announce = () => bus.publish(ORGANISATION_EVENTS_CHANNEL, ORG);

  it('replays after Last-Event-ID in batches, skipping other activity, then follows announcements', async () => {
    log.add('interrupt.created');
    log.add('member.invited');
    log.add('interrupt.assigned', { assigneeType: 'member', assigneeId: 'm', assigneeName: 'Ada' });
    log.add('api_key.created');
    log.add('interrupt.escalated', { level: 1 });
    log.add('session.started');
    const res = await open(1);
    expect(res.events()).toEqual([
      'ready',
      'interrupt.assigned',
      'interrupt.escalated',
      'session.started',
    ]);
    expect(res.ids()).toEqual([1, 3, 5, 6]);
    log.add('interrupt.decided', { becameAnswered: true });
    await announce();
    await tick(5);
    expect(res.events().slice(4)).toEqual(['interrupt.decided', 'interrupt.answered']);
    expect(res.ids()).toEqual([1, 3, 5, 6, 7]);
  });

  it('starts at the head without Last-Event-ID; resets when Last-Event-ID is too far behind or ahead', async () => {
    for (let i = 0; i < 8; i++) log.add('interrupt.created');
    const fresh = await open();
    expect(fresh.events()).toEqual(['ready']);
    expect(fresh.ids()).toEqual([8]);
    const behind = await open(2);
    expect(behind.events()).toEqual(['reset']);
    expect(behind.ids()).toEqual([8]);
    const ahead = await open(9);
    expect(ahead.events()).toEqual(['reset']);
    const near = await open(3);
    expect(near.events()).toEqual([
      'ready',
      'interrupt.created',
      'interrupt.created',
      'interrupt.created',
      'interrupt.created',
      'interrupt.created',
    ]);
  });

  it('costs two queries per heartbeat however many streams are open: one sign-in check, one read of the heads', async () => {
    const streams = await Promise.all(Array.from({ length: 40 }, () => open()));
    signInCalls = 0;
    const before = log.queries;
    await tick(50);
    expect(streams.every((res) => res.text.includes(': heartbeat\n\n'))).toBe(true);
    // Each heartbeat in the window: one sign-in check for all 40, one read of the heads for all 40.
    expect(signInCalls).toBeGreaterThanOrEqual(1);
    expect(log.queries - before).toBe(signInCalls);
    // One organisation ahead: the same two per heartbeat, and each stream's catch-up once (its head and one page).
    log.add('interrupt.created');
    signInCalls = 0;
    const next = log.queries;
    await tick(50);
    expect(signInCalls).toBeGreaterThanOrEqual(1);
    expect(log.queries - next).toBe(signInCalls + 40 * 2);
    expect(streams.every((res) => res.events().includes('interrupt.created'))).toBe(true);
  });

  it('catches up at the heartbeat when an announcement was lost', async () => {
    const res = await open();
    log.add('interrupt.created');
    await eventually(
      () => res.events().length === 2 && res.text.includes(': heartbeat\n\n'),
      10_000,
    );
    expect(res.text).toContain(': heartbeat\n\n');
    expect(res.events()).toEqual(['ready', 'interrupt.created']);
  });

  it('sends session events only with session.read, following the member’s permissions at each heartbeat', async () => {
    const res = await open(undefined, ['interrupt.read']);
    log.add('session.started');
    log.add('interrupt.created');
    await announce();
    await tick(5);
    expect(res.events()).toEqual(['ready', 'interrupt.created']);
    permissions = new Set(['interrupt.read']);
    await tick(60);
    log.add('session.ended', { messageCount: 0 });
    await tick(60);
    expect(res.events()).toEqual(['ready', 'interrupt.created']);
    permissions = new Set(['interrupt.read', 'session.read']);
    await tick(60);
    log.add('session.disconnected', { messageCount: 0 });
    await announce();
    await eventually(() => res.events().length === 3, 10_000);
    expect(res.events()).toEqual(['ready', 'interrupt.created', 'session.ended']);
  });

  it('drops the stream at the next heartbeat once the member signed out or lost interrupt.read', async () => {
    const res = await open();
    permissions = new Set(['session.read']);
    await eventually(() => res.writableEnded, 10_000);
    expect(res.writableEnded).toBe(true);
    expect(events.count).toBe(0);
    permissions = undefined;
    const again = await open();
    await eventually(() => again.writableEnded, 10_000);
    expect(again.writableEnded).toBe(true);
  });

  it('refuses a Last-Event-ID that is not a non-negative integer with 400, opening nothing', async () => {
    await expect(open('-1' as unknown as number)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      message: 'Last-Event-ID must be the id of an event of this stream (a non-negative integer).',
    });
    expect(events.count).toBe(0);
    expect(log.queries).toBe(0);
  });

  it('forgets a stream whose client left, and ignores announcements of other organisations', async () => {
    const res = await open();
    const before = log.queries;
    await bus.publish(ORGANISATION_EVENTS_CHANNEL, '11111111-2222-4333-8444-555555555555');
    await bus.publish(ORGANISATION_EVENTS_CHANNEL, 'garbage');
    await tick(5);
    expect(log.queries).toBe(before);
    res.emit('close');
    expect(events.count).toBe(0);
    await announce();
    await tick(5);
    expect(log.queries).toBe(before);
  });
});
