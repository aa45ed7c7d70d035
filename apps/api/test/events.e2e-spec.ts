import request from 'supertest';
import { InterruptLifecycleService } from '../src/interrupts/interrupt-lifecycle.service';
import {
  createApiKey,
  memberWithPermissions,
  openInterrupt,
  signUpOwner,
  SignedUpOwner,
  startSession,
} from './support/factories';
import { ServiceProcess, startServiceProcesses } from './support/service-process';
import { SseClient, SseEvent } from './support/sse-client';
import { startTestApp, TestApp } from './support/test-app';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';

// Issue 12 §1: the organisation's event stream (GET /api/events) for an inbox that updates
// without reloading: resumable with Last-Event-ID, across instances.
describe('organisation events (GET /api/events)', () => {
  let t: TestApp;
  let base: string;
  let owner: SignedUpOwner;
  let key: string;
  const clients: SseClient[] = [];

  const http = () => request(t.app.getHttpServer());
  const stream = async (cookie: string, headers: Record<string, string> = {}) => {
    const client = await SseClient.open(`${base}/api/events`, { cookie, ...headers });
    clients.push(client);
    return client;
  };
  const decide = (id: string, actionName: string, cookie = owner.cookie) =>
    http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', cookie)
      .send({ actionName, decision: 'approve' });

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'agent-key' })).key;
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts with ready at the head, then sends each interrupt and session event as it happens', async () => {
    const client = await stream(owner.cookie);
    expect(client.status).toBe(200);
    expect(client.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await client.until(() => client.events.length === 1);
    const ready = client.events[0];
    expect(ready.event).toBe('ready');
    expect(ready.data).toEqual({ seq: Number(ready.id) });
    const head = Number(ready.id);

    const server = t.app.getHttpServer();
    const session = await startSession(server, key, { name: 'run-1' });
    const opened = await openInterrupt(server, key, {
      title: 'Ship it',
      actions: ['ship', 'tell'],
      externalId: 'ext-9',
      sessionId: session.id,
    });
    expect(
      (
        await http()
          .post(`/api/interrupts/${opened.id}/assign`)
          .set('cookie', owner.cookie)
          .send({ memberId: owner.memberId })
      ).status,
    ).toBe(200);
    expect(
      (
        await http()
          .post(`/api/interrupts/${opened.id}/escalate`)
          .set('cookie', owner.cookie)
          .send({ reason: 'now' })
      ).status,
    ).toBe(200);
    expect((await decide(opened.id, 'ship')).status).toBe(201);
    expect((await decide(opened.id, 'tell')).status).toBe(201);
    expect(
      (await http().post(`/api/sessions/${session.id}/end`).set('x-api-key', key)).status,
    ).toBe(200);

    await client.until(() => client.events.some((e) => e.event === 'session.ended'));
    const events = client.events.slice(1);
    expect(events.map((e) => e.event)).toEqual([
      'session.started',
      'interrupt.created',
      'interrupt.assigned',
      'interrupt.escalated',
      'interrupt.decided',
      'interrupt.decided',
      'interrupt.answered',
      'session.ended',
    ]);
    // Ids are the audit sequence numbers, increasing; the decision that answered the interrupt
    // carries no id, its interrupt.answered does (the same number).
    const ids = events.map((e) => e.id);
    expect(ids[5]).toBeUndefined();
    const numbered = ids.filter((id): id is string => id !== undefined).map(Number);
    expect(numbered[0]).toBeGreaterThan(head);
    expect([...numbered].sort((a, b) => a - b)).toEqual(numbered);
    expect(new Set(numbered).size).toBe(numbered.length);
    for (const e of events) expect(e.data.seq).toBe(Number(e.id ?? ids[6]));

    const actor = { type: 'member', id: owner.memberId, name: 'Ada Lovelace' };
    const interrupt = { id: opened.id, title: 'Ship it' };
    expect(events[0].data).toMatchObject({
      type: 'session.started',
      session: { id: session.id, name: 'run-1' },
      actor: { type: 'api_key', name: 'agent-key' },
    });
    expect(events[1].data).toMatchObject({
      type: 'interrupt.created',
      interrupt,
      externalId: 'ext-9',
      actionNames: ['ship', 'tell'],
    });
    expect(events[2].data).toMatchObject({
      type: 'interrupt.assigned',
      interrupt,
      actor,
      assignee: { type: 'member', id: owner.memberId, name: 'Ada Lovelace' },
    });
    expect(events[3].data).toMatchObject({
      type: 'interrupt.escalated',
      interrupt,
      level: 1,
      reason: 'now',
    });
    expect(events[4].data).toMatchObject({
      type: 'interrupt.decided',
      actionName: 'ship',
      decision: 'approve',
      becameAnswered: false,
    });
    expect(events[5].data).toMatchObject({
      type: 'interrupt.decided',
      actionName: 'tell',
      becameAnswered: true,
    });
    expect(events[6].data).toMatchObject({ type: 'interrupt.answered', interrupt });
    expect(events[7].data).toMatchObject({
      type: 'session.ended',
      status: 'ended',
      messageCount: 0,
    });
    for (const e of events)
      expect(e.data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('sends interrupt.unassigned, naming who it was assigned to, when an interrupt is unassigned', async () => {
    const client = await stream(owner.cookie);
    await client.until(() => client.events.length === 1);
    const opened = await openInterrupt(t.app.getHttpServer(), key, { title: 'Hand back' });
    const assign = (memberId: string | null) =>
      http()
        .post(`/api/interrupts/${opened.id}/assign`)
        .set('cookie', owner.cookie)
        .send({ memberId });
    expect((await assign(owner.memberId)).status).toBe(200);
    expect((await assign(null)).status).toBe(200);
    await client.until(() => client.events.some((e) => e.event === 'interrupt.unassigned'));
    expect(client.events.slice(1).map((e) => e.event)).toEqual([
      'interrupt.created',
      'interrupt.assigned',
      'interrupt.unassigned',
    ]);
    const event = client.events[3];
    expect(event.data).toEqual({
      seq: Number(event.id),
      type: 'interrupt.unassigned',
      createdAt: expect.stringMatching(/Z$/),
      actor: { type: 'member', id: owner.memberId, name: 'Ada Lovelace' },
      interrupt: { id: opened.id, title: 'Hand back' },
      previousAssignee: { type: 'member', id: owner.memberId, name: 'Ada Lovelace' },
    });
  });

  it('sends interrupt.withdrawn, interrupt.reminder and interrupt.expired as the lifecycle writes them', async () => {
    const client = await stream(owner.cookie);
    await client.until(() => client.events.length === 1);
    const server = t.app.getHttpServer();
    const lifecycle = t.app.get(InterruptLifecycleService);
    const withdrawn = await openInterrupt(server, key, { title: 'Not needed' });
    const reminded = await openInterrupt(server, key, { title: 'Still waiting' });
    const deadline = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({
        title: 'Due soon',
        actionRequests: [{ name: 'deploy' }, { name: 'notify' }],
        timeoutSeconds: 60,
      });
    expect(deadline.status).toBe(201);

    expect(
      (
        await http()
          .post(`/api/interrupts/${withdrawn.id}/cancel`)
          .set('x-api-key', key)
          .send({ reason: 'The agent found another way.' })
      ).status,
    ).toBe(200);
    const policy = (steps: unknown[]) =>
      http().put('/api/organisation/escalation-policy').set('cookie', owner.cookie).send({ steps });
    expect((await policy([{ afterMinutes: 10, action: 'remind' }])).status).toBe(200);
    try {
      // The clock is injected: eleven minutes on for the reminder, 61 s for the deadline.
      await lifecycle.escalateDue(new Date(Date.now() + 11 * 60_000));
      await lifecycle.expireDue(new Date(Date.now() + 61_000));
    } finally {
      expect((await policy([])).status).toBe(200);
    }

    const mine = (type: string, id: string) =>
      client.events.filter(
        (e) => e.event === type && (e.data.interrupt as { id?: string } | undefined)?.id === id,
      );
    await client.until(() => mine('interrupt.expired', deadline.body.id).length === 1);
    const system = { type: 'system', id: null, name: 'system' };
    const [withdrawnEvent] = mine('interrupt.withdrawn', withdrawn.id);
    expect(withdrawnEvent.data).toEqual({
      seq: Number(withdrawnEvent.id),
      type: 'interrupt.withdrawn',
      createdAt: expect.stringMatching(/Z$/),
      actor: { type: 'api_key', id: expect.any(String), name: 'agent-key' },
      interrupt: { id: withdrawn.id, title: 'Not needed' },
      reason: 'The agent found another way.',
    });
    const reminders = mine('interrupt.reminder', reminded.id);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].data).toEqual({
      seq: Number(reminders[0].id),
      type: 'interrupt.reminder',
      createdAt: expect.stringMatching(/Z$/),
      actor: system,
      interrupt: { id: reminded.id, title: 'Still waiting' },
      step: 1,
      assignee: null,
    });
    // A withdrawn interrupt is no longer open: nobody is reminded of it.
    expect(mine('interrupt.reminder', withdrawn.id)).toEqual([]);
    const [expiredEvent] = mine('interrupt.expired', deadline.body.id);
    expect(expiredEvent.data).toEqual({
      seq: Number(expiredEvent.id),
      type: 'interrupt.expired',
      createdAt: expect.stringMatching(/Z$/),
      actor: system,
      interrupt: { id: deadline.body.id, title: 'Due soon' },
      outcome: 'reject',
      actionNames: ['deploy', 'notify'],
    });
  });

  it('resumes after Last-Event-ID with exactly what was missed, in order', async () => {
    const first = await stream(owner.cookie);
    const server = t.app.getHttpServer();
    const a = await openInterrupt(server, key, { title: 'Before the drop' });
    await first.until(() =>
      first.events.some(
        (e) =>
          e.event === 'interrupt.created' &&
          e.data.interrupt &&
          (e.data.interrupt as { id: string }).id === a.id,
      ),
    );
    const lastId = [...first.events].reverse().find((e) => e.id !== undefined)?.id as string;
    first.close();

    // While disconnected: an interrupt opened and answered, a session started and disconnected.
    const b = await openInterrupt(server, key, { title: 'While away' });
    expect((await decide(b.id, 'deploy')).status).toBe(201);
    const s = await startSession(server, key, { name: 'away-run' });
    expect(
      (await http().post(`/api/sessions/${s.id}/disconnect`).set('cookie', owner.cookie)).status,
    ).toBe(200);

    const resumed = await stream(owner.cookie, { 'last-event-id': lastId });
    await resumed.until(() => resumed.events.some((e) => e.event === 'session.ended'));
    expect(resumed.events[0]).toMatchObject({
      event: 'ready',
      id: lastId,
      data: { seq: Number(lastId) },
    });
    expect(resumed.events.slice(1).map((e) => e.event)).toEqual([
      'interrupt.created',
      'interrupt.decided',
      'interrupt.answered',
      'session.started',
      'session.ended',
    ]);
    expect(resumed.events[1].data.interrupt).toEqual({ id: b.id, title: 'While away' });
    expect(resumed.events[5].data).toMatchObject({
      session: { id: s.id, name: 'away-run' },
      status: 'disconnected',
    });
    // Nothing from before the drop is sent again.
    expect(
      resumed.events.some((e) => (e.data.interrupt as { id: string } | undefined)?.id === a.id),
    ).toBe(false);
  });

  it('answers reset (and carries on from the head) when Last-Event-ID is ahead of the log', async () => {
    const client = await stream(owner.cookie, { 'last-event-id': '999999999' });
    await client.until(() => client.events.length === 1);
    expect(client.events[0].event).toBe('reset');
    const head = Number(client.events[0].id);
    expect(client.events[0].data).toEqual({ seq: head });
    expect(head).toBeLessThan(999999999);
    await openInterrupt(t.app.getHttpServer(), key, { title: 'After the reset' });
    await client.until(() => client.events.length === 2);
    expect(Number(client.events[1].id)).toBeGreaterThan(head);
  });

  it('sends session events only to members holding session.read', async () => {
    const reader = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['interrupt.read'],
      'Inbox Only',
    );
    const client = await stream(reader.cookie);
    await client.until(() => client.events.length === 1);
    const server = t.app.getHttpServer();
    const s = await startSession(server, key);
    const i = await openInterrupt(server, key, { title: 'Seen by all' });
    expect((await http().post(`/api/sessions/${s.id}/end`).set('x-api-key', key)).status).toBe(200);
    const marker = await openInterrupt(server, key, { title: 'Marker' });
    await client.until(() =>
      client.events.some((e) => (e.data.interrupt as { id: string } | undefined)?.id === marker.id),
    );
    expect(
      client.events.slice(1).map((e) => [e.event, (e.data.interrupt as { id: string }).id]),
    ).toEqual([
      ['interrupt.created', i.id],
      ['interrupt.created', marker.id],
    ]);
  });

  it('is for members with interrupt.read; keys, strangers and bad ids are refused; other organisations are never seen', async () => {
    const byKey = await fetch(`${base}/api/events`, {
      headers: { 'x-api-key': key, cookie: owner.cookie },
    });
    expect(byKey.status).toBe(403);
    expect(await byKey.json()).toMatchObject({
      code: 'HUMANS_ONLY',
      message: 'This endpoint is reserved for humans.',
    });
    const anonymous = await fetch(`${base}/api/events`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({
      code: 'SIGN_IN_REQUIRED',
      message: 'Sign-in required.',
    });
    const sessionsOnly = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['session.read'],
      'Sessions Only',
    );
    const refused = await fetch(`${base}/api/events`, { headers: { cookie: sessionsOnly.cookie } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: 'MISSING_PERMISSION',
      message: 'Missing permission: interrupt.read.',
    });
    const bad = await fetch(`${base}/api/events`, {
      headers: { cookie: owner.cookie, 'last-event-id': 'abc' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Last-Event-ID must be the id of an event of this stream (a non-negative integer).',
    });

    const stranger = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Elsewhere' });
    const strangerKey = (await createApiKey(t.app.getHttpServer(), stranger.cookie)).key;
    const theirs = await stream(stranger.cookie, { 'last-event-id': '0' });
    await theirs.until(() => theirs.events.length >= 1);
    await openInterrupt(t.app.getHttpServer(), key, { title: 'Not theirs' });
    const own = await openInterrupt(t.app.getHttpServer(), strangerKey, { title: 'Theirs' });
    await theirs.until(() => theirs.events.some((e) => e.event === 'interrupt.created'));
    const created = theirs.events.filter((e) => e.event === 'interrupt.created');
    expect(created.map((e) => (e.data.interrupt as { id: string }).id)).toEqual([own.id]);
  });
});

// The acceptance case: two service processes on one database, events written through either.
describe('organisation events across instances', () => {
  let db: TestDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      API_KEY_PEPPER: 'events-pepper-0123456789abcdef0123456789',
    };
    [a, b] = await startServiceProcesses(env, 2);
  });
  afterAll(async () => {
    if (b?.child.exitCode === null) await b.stop();
    if (a?.child.exitCode === null) await a.stop();
    await db.drop();
  });

  it('a stream on A receives what happens through B at once (pushed, not at a heartbeat); after A stops, B resumes it from Last-Event-ID', async () => {
    const signUp = await fetch(`${a.baseUrl}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'events@example.test',
        password: 'a long password',
        name: 'Eve',
        organisationName: 'Events',
      }),
    });
    expect(signUp.status).toBe(201);
    const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
    const { key } = (await (
      await fetch(`${a.baseUrl}/api/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ name: 'agent', expiry: 'never' }),
      })
    ).json()) as { key: string };
    const openOn = async (base: string, title: string) => {
      const res = await fetch(`${base}/api/interrupts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ title, actionRequests: [{ name: 'go' }] }),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };

    const client = await SseClient.open(`${a.baseUrl}/api/events`, { cookie });
    expect(client.status).toBe(200);
    await client.until(() => client.events.length === 1);

    // B's first write pays the fresh instance's one-time costs (caches, statement plans); what is
    // timed below is the path from B's writes to A's stream, so B is warmed up first. Every wait
    // here outlasts the 15 s heartbeat, so a push that never comes shows as a long delay (the
    // heartbeat's catch-up found it), not as a timeout.
    const seen = (id: string) =>
      client.events.find((e) => (e.data.interrupt as { id: string } | undefined)?.id === id);
    const warm = await openOn(b.baseUrl, 'via B, warm-up');
    await client.until(() => seen(warm.id) !== undefined, 20_000);

    // A round: three interrupts opened through B, each timed from B's answer (the interrupt is
    // committed) to its event on A. Pushed across instances, that is milliseconds (a figure of
    // tools:bench-scale-out, BENCHMARKS.md "Scale-out"); found by a heartbeat's catch-up instead,
    // it is anywhere in the 15 s between two, so three under 2 s each happen by chance one round
    // in ~400. A loaded machine (seen: 6.4 s from sending the POST at load 30-38, most of it the
    // POST itself) gets up to three rounds; the defect misses them all.
    const round = async (attempt: number) => {
      const delays: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const opened = await openOn(b.baseUrl, `via B #${attempt}.${i}`);
        const answered = Date.now();
        await client.until(() => seen(opened.id) !== undefined, 20_000);
        delays.push(Math.max(0, (seen(opened.id) as SseEvent).at - answered));
      }
      return Math.max(...delays);
    };
    let slowest = Infinity;
    for (let attempt = 1; attempt <= 3 && !(slowest < 2_000); attempt++) {
      slowest = await round(attempt);
    }
    expect(slowest).toBeLessThan(2_000);
    const decided = await fetch(
      `${b.baseUrl}/api/interrupts/${(client.events[1].data.interrupt as { id: string }).id}/decisions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ actionName: 'go', decision: 'approve' }),
      },
    );
    expect(decided.status).toBe(201);
    await client.until(() => client.events.some((e) => e.event === 'interrupt.answered'), 20_000);
    const lastId = [...client.events].reverse().find((e) => e.id !== undefined)?.id as string;

    // A stops: its stream ends. What happens meanwhile is delivered by B on resume.
    expect(await a.stop()).toBe(0);
    await client.until(() => client.ended, 15_000);
    const missed = await openOn(b.baseUrl, 'while A was down');
    const resumed = await SseClient.open(`${b.baseUrl}/api/events`, {
      cookie,
      'last-event-id': lastId,
    });
    try {
      await resumed.until(() => resumed.events.length === 2);
      expect(resumed.events[0]).toMatchObject({ event: 'ready', id: lastId });
      expect(resumed.events[1]).toMatchObject({
        event: 'interrupt.created',
        data: { interrupt: { id: missed.id, title: 'while A was down' } },
      });
    } finally {
      resumed.close();
    }
  });
});
