import type { HttpAdapterHost } from '@nestjs/core';
import type { HttpResponse } from '../http/platform';
import type { DataSource } from 'typeorm';
import type { SignInCheck } from '../http/sse-streams';
import { SseStreams } from '../http/sse-streams';
import {
  FakeResponse,
  quietLogger,
  SIGN_IN_TOKEN,
  streamRequest,
  tick,
} from '../http/sse-streams.spec-support';
import { eventually } from '../testing/eventually';
import { InProcessNotificationBus } from '../notifications/notification-bus';
import { encodeSessionChange, LIVE_VIEW_CHANNEL } from './live-view-channel';
import { LiveViewCursor, LiveViewService } from './live-view.service';
import type { SessionRow } from './session-record';
import { SessionsRepository } from './sessions.repository';

const ORG = 'o1';
const SESSION = 's1';
const HOLDER = { memberId: 'u1', organisationId: ORG };

/** An in-memory stand-in for the two tables the Live View reads. */
class FakeDatabase {
  session: SessionRow = {
    id: SESSION,
    name: 'nightly',
    external_id: null,
    status: 'active',
    metadata: null,
    message_count: 0,
    started_at: new Date('2026-11-21T10:00:00.000Z'),
    ended_at: null,
  };
  messages: { seq: number; role: string; content: string; created_at: Date }[] = [];
  queries = 0;

  append(...contents: string[]): void {
    for (const content of contents) {
      this.session.message_count += 1;
      this.messages.push({
        seq: this.session.message_count,
        role: 'agent',
        content,
        created_at: new Date(),
      });
    }
  }

  async query(sql: string, params: unknown[]): Promise<unknown[]> {
    this.queries++;
    if (sql.includes('unnest(')) {
      // Where many sessions stand (the heartbeat): the pairs of this organisation's session.
      const [orgs, ids] = params as [string[], string[]];
      return orgs.some((o, i) => o === ORG && ids[i] === SESSION)
        ? [
            {
              organisation_id: ORG,
              id: SESSION,
              message_count: this.session.message_count,
              status: this.session.status,
            },
          ]
        : [];
    }
    if (params[0] !== ORG || params[1] !== SESSION) return [];
    if (sql.includes('FROM session_messages')) {
      return this.messages
        .filter((m) => m.seq > (params[2] as number))
        .slice(0, params[3] as number);
    }
    return [{ ...this.session }];
  }
}

const req = streamRequest();
const logger = quietLogger;

describe('LiveViewService', () => {
  let db: FakeDatabase;
  let bus: InProcessNotificationBus;
  let server: { listening: boolean };
  let signedIn: boolean;
  let live: SseStreams<LiveViewCursor>;
  let feed: LiveViewService;
  let serve: (res: FakeResponse, lastEventId: number | string | undefined) => Promise<void>;

  beforeEach(() => {
    db = new FakeDatabase();
    bus = new InProcessNotificationBus();
    server = { listening: true };
    signedIn = true;
    const signIns = {
      stillMembers: async (checks: { token: string; organisationId: string }[]) =>
        checks.map(({ token, organisationId }) =>
          signedIn && token === SIGN_IN_TOKEN && organisationId === ORG
            ? new Set(['session.read'])
            : undefined,
        ),
    } as unknown as SignInCheck;
    const adapterHost = {
      httpAdapter: { getHttpServer: () => server },
    } as unknown as HttpAdapterHost;
    // The feed (the service) behind the HTTP layer's streams, as SessionsController wires them.
    feed = new LiveViewService(db as unknown as DataSource, new SessionsRepository(), bus, {
      heartbeatMs: 40,
      batchSize: 2,
    });
    live = new SseStreams(adapterHost, logger, signIns, feed, { admit: () => () => undefined });
    serve = (res, lastEventId) =>
      live.serve(
        streamRequest(lastEventId),
        res as unknown as HttpResponse,
        HOLDER,
        'Last-Event-ID must be the number of a message of this session.',
        (after) => feed.start(ORG, SESSION, after),
      );
  });
  afterEach(() => live.closeAll());

  const open = async (lastEventId?: number) => {
    const res = new FakeResponse();
    await serve(res, lastEventId);
    return res;
  };
  const announce = () =>
    bus.publish(
      LIVE_VIEW_CHANNEL,
      encodeSessionChange({
        organisationId: ORG,
        sessionId: SESSION,
        messageCount: db.session.message_count,
        status: db.session.status,
      }),
    );

  it('sends the history in pages, then what each announcement brings', async () => {
    db.append('a', 'b', 'c', 'd', 'e');
    const res = await open();
    expect(res.text.startsWith('retry: 3000\n\nevent: session\n')).toBe(true);
    expect(res.ids()).toEqual([1, 2, 3, 4, 5]);
    db.append('f');
    await announce();
    await tick(5);
    expect(res.ids()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('heartbeats, and a heartbeat catches up a viewer whose announcement was lost', async () => {
    const res = await open();
    db.append('missed');
    await eventually(() => res.ids().length === 1 && res.text.includes(': heartbeat\n\n'), 10_000);
    expect(res.text).toContain(': heartbeat\n\n');
    expect(res.ids()).toEqual([1]);
  });

  it('drops a viewer at the next heartbeat once its sign-in is gone', async () => {
    const res = await open();
    signedIn = false;
    await eventually(() => res.writableEnded, 10_000);
    expect(res.writableEnded).toBe(true);
    expect(live.count).toBe(0);
  });

  it('resumes after Last-Event-ID; ends with the final record; answers 204 when nothing is left', async () => {
    db.append('a', 'b', 'c');
    const res = await open(2);
    expect(res.ids()).toEqual([3]);
    db.session.status = 'ended';
    await announce();
    await tick(5);
    expect(res.writableEnded).toBe(true);
    expect(res.text.trimEnd().split('\n\n').pop()).toContain('"status":"ended"');
    const after = await open(3);
    expect(after.statusCode).toBe(204);
    expect(live.count).toBe(0);
  });

  it('waits for a slow client to drain before writing more', async () => {
    db.append('a', 'b', 'c', 'd');
    const res = new FakeResponse();
    res.slow = true;
    const opened = serve(res, undefined);
    await tick(5);
    const written = res.chunks.length;
    await tick(20);
    expect(res.chunks.length).toBe(written);
    res.slow = false;
    res.emit('drain');
    await opened;
    expect(res.ids()).toEqual([1, 2, 3, 4]);
  });

  it('closes every stream once the server stops listening (graceful shutdown), and refuses new ones', async () => {
    const res = await open();
    server.listening = false;
    await tick(400);
    expect(res.writableEnded).toBe(true);
    expect(live.count).toBe(0);
    await expect(open()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it("refuses a Last-Event-ID that is no message number (400) and a session that is not the organisation's (404), before any header", async () => {
    const res = new FakeResponse();
    await expect(serve(res, 'x1')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Last-Event-ID must be the number of a message of this session.',
    });
    await expect(
      live.serve(req, res as unknown as HttpResponse, HOLDER, 'unused', () =>
        feed.start(ORG, 'another-session', undefined),
      ),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(res.statusCode).toBe(0);
    expect(live.count).toBe(0);
  });

  it('forgets a viewer whose client left', async () => {
    const res = await open();
    expect(live.count).toBe(1);
    res.emit('close');
    expect(live.count).toBe(0);
    const before = db.queries;
    db.append('x');
    await announce();
    await tick(5);
    expect(db.queries).toBe(before);
  });
});
