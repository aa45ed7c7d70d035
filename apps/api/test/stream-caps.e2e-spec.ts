import request from 'supertest';
import { SignInSessionService } from '../src/auth/sign-in-session.service';
import { OrganisationEventsService } from '../src/events/organisation-events.service';
import { StreamAdmission } from '../src/notifications/stream-admission';
import { LiveViewService } from '../src/sessions/live-view.service';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { SseClient } from './support/sse-client';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

/**
 * Issue 34 item 1: open event streams are capped per person, per organisation and per instance
 * (GET /api/events and the Live View together), and a heartbeat checks every stream's sign-in
 * and position in one query each (the queries here run on real Postgres).
 */
describe('event stream caps (SPEC §8b)', () => {
  let t: TestApp;
  let base: string;
  let owner: SignedUpOwner;
  let key: string;
  const open: SseClient[] = [];

  const http = () => request(t.app.getHttpServer());
  const events = async (cookie: string) => {
    const client = await SseClient.open(`${base}/api/events`, { cookie });
    if (client.status === 200) open.push(client);
    return client;
  };
  const liveView = async (cookie: string, sessionId: string) => {
    const client = await SseClient.open(`${base}/api/sessions/${sessionId}/stream`, { cookie });
    if (client.status === 200) open.push(client);
    return client;
  };
  /** Streams the service holds now, as its caps count them. */
  const held = () => t.app.get(StreamAdmission).held();
  /** Closes a client and waits until the service has forgotten its stream (its slot is free). */
  const close = async (client: SseClient) => {
    const before = held();
    client.close();
    open.splice(open.indexOf(client), 1);
    await waitFor(async () => held() === before - 1, 'the closed stream to give its slot back');
  };
  const expectRefused = (
    res: request.Response,
    status: number,
    code: string,
    message: string,
    retryAfter: string,
  ) => {
    expect(res.status).toBe(status);
    expect(res.headers['retry-after']).toBe(retryAfter);
    expect(res.body).toEqual({
      statusCode: status,
      error: status === 429 ? 'Too Many Requests' : 'Service Unavailable',
      code,
      message,
      requestId: expect.any(String),
    });
  };
  const memberRefusal =
    'Too many open streams: one person may hold 3 at once. Close one, then retry.';
  const organisationRefusal =
    "Too many open streams: this organisation's members may hold 5 at once. Close one, then retry.";
  const instanceRefusal = 'This instance holds as many open streams as it can. Reconnect shortly.';

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        STREAMS_MAX_PER_MEMBER: '3',
        STREAMS_MAX_PER_ORGANISATION: '5',
        STREAMS_MAX_PER_INSTANCE: '8',
      },
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterEach(async () => {
    for (const client of open.splice(0)) client.close();
    await waitFor(async () => held() === 0, 'every closed stream to give its slot back');
  });
  afterAll(async () => {
    await t.close();
  });

  it('caps one person at 3 streams, both feeds together: 429 with Retry-After; a closed stream frees its slot', async () => {
    const { body: session } = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 'watched' });
    const first = await events(owner.cookie);
    expect(first.status).toBe(200);
    expect((await events(owner.cookie)).status).toBe(200);
    expect((await liveView(owner.cookie, session.id)).status).toBe(200);

    expectRefused(
      await http().get('/api/events').set('cookie', owner.cookie),
      429,
      'RATE_LIMITED',
      memberRefusal,
      '15',
    );
    expectRefused(
      await http().get(`/api/sessions/${session.id}/stream`).set('cookie', owner.cookie),
      429,
      'RATE_LIMITED',
      memberRefusal,
      '15',
    );

    await close(first);
    expect((await events(owner.cookie)).status).toBe(200);
  });

  it('gives back the slot of a stream that never opened (404, 204, 400)', async () => {
    const { body: session } = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 'short' });
    await http().post(`/api/sessions/${session.id}/end`).set('x-api-key', key);
    expect((await events(owner.cookie)).status).toBe(200);
    expect((await events(owner.cookie)).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect(
        (
          await http()
            .get('/api/sessions/00000000-0000-4000-8000-000000000000/stream')
            .set('cookie', owner.cookie)
        ).status,
      ).toBe(404);
      expect(
        (
          await http()
            .get(`/api/sessions/${session.id}/stream`)
            .set('cookie', owner.cookie)
            .set('last-event-id', '0')
        ).status,
      ).toBe(204);
      expect(
        (await http().get('/api/events').set('cookie', owner.cookie).set('last-event-id', 'x'))
          .status,
      ).toBe(400);
    }
    expect((await events(owner.cookie)).status).toBe(200);
    expect((await http().get('/api/events').set('cookie', owner.cookie)).status).toBe(429);
  });

  it("caps an organisation's members at 5 together, and the instance at 8 (503 with Retry-After)", async () => {
    const { manager } = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const ann = await joinOrganisation(t.app.getHttpServer(), owner.cookie, manager, 'Ann');
    const bob = await joinOrganisation(t.app.getHttpServer(), owner.cookie, manager, 'Bob');
    for (let i = 0; i < 3; i++) expect((await events(owner.cookie)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await events(ann.cookie)).status).toBe(200);
    expectRefused(
      await http().get('/api/events').set('cookie', bob.cookie),
      429,
      'RATE_LIMITED',
      organisationRefusal,
      '15',
    );

    const other = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Elsewhere' });
    const third = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Third' });
    for (let i = 0; i < 3; i++) expect((await events(other.cookie)).status).toBe(200);
    expectRefused(
      await http().get('/api/events').set('cookie', third.cookie),
      503,
      'SERVICE_UNAVAILABLE',
      instanceRefusal,
      '5',
    );

    await close(open[open.length - 1]);
    expect((await events(third.cookie)).status).toBe(200);
  });

  it('checks the sign-in of many streams in one query: signed out, removed, other organisation and changed roles', async () => {
    const signIns = t.app.get(SignInSessionService);
    const { manager, developer } = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const cy = await joinOrganisation(t.app.getHttpServer(), owner.cookie, manager, 'Cy');
    const dee = await joinOrganisation(t.app.getHttpServer(), owner.cookie, developer, 'Dee');
    const eve = await joinOrganisation(t.app.getHttpServer(), owner.cookie, manager, 'Eve');
    const stranger = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Stranger' });
    const token = (cookie: string) => cookie.replace(/^session=/, '');

    expect((await http().post('/api/auth/sign-out').set('cookie', dee.cookie)).status).toBeLessThan(
      300,
    );
    expect(
      (await http().delete(`/api/members/${eve.memberId}`).set('cookie', owner.cookie)).status,
    ).toBe(204);

    const checks = [
      { token: token(owner.cookie), organisationId: owner.organisationId },
      { token: token(cy.cookie), organisationId: owner.organisationId },
      { token: token(dee.cookie), organisationId: owner.organisationId },
      { token: token(eve.cookie), organisationId: owner.organisationId },
      { token: token(stranger.cookie), organisationId: owner.organisationId },
      { token: token(stranger.cookie), organisationId: stranger.organisationId },
      { token: token(cy.cookie), organisationId: owner.organisationId },
      { token: 'not-a-session', organisationId: owner.organisationId },
    ];
    const answers = await signIns.stillMembers(checks);
    expect(answers.map((a) => a !== undefined)).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(answers[0]?.has('role.manage')).toBe(true);
    expect(answers[1]?.has('interrupt.read')).toBe(true);
    expect(answers[1]?.has('role.manage')).toBe(false);
    expect(await signIns.stillMembers([])).toEqual([]);
  });

  it("reads where every stream stands in one query: the organisations' heads and the watched sessions", async () => {
    const feed = t.app.get(OrganisationEventsService);
    const other = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Heads' });
    const mine = await feed.start(owner.organisationId, new Set(['interrupt.read']), undefined);
    const theirs = await feed.start(other.organisationId, new Set(['interrupt.read']), undefined);
    if (mine.kind !== 'open' || theirs.kind !== 'open') throw new Error('streams did not open');
    expect(await feed.pending([mine.cursor, theirs.cursor])).toEqual([]);
    await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Deploy?', actionRequests: [{ name: 'deploy' }] });
    expect(await feed.pending([mine.cursor, theirs.cursor])).toEqual([mine.cursor]);

    const live = t.app.get(LiveViewService);
    const { body: a } = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 'a' });
    const { body: b } = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 'b' });
    const viewA = await live.start(owner.organisationId, a.id, undefined);
    const viewB = await live.start(owner.organisationId, b.id, undefined);
    // A stranger's cursor naming this organisation's session is never this organisation's row.
    const foreign = { organisationId: other.organisationId, key: a.id, lastSeq: 0 };
    if (viewA.kind !== 'open' || viewB.kind !== 'open') throw new Error('views did not open');
    expect(await live.pending([viewA.cursor, viewB.cursor])).toEqual([]);
    await http()
      .post(`/api/sessions/${a.id}/messages`)
      .set('x-api-key', key)
      .send({ messages: [{ role: 'agent', content: 'hi' }] });
    await http().post(`/api/sessions/${b.id}/end`).set('x-api-key', key);
    expect(await live.pending([viewA.cursor, viewB.cursor, foreign])).toEqual([
      viewA.cursor,
      viewB.cursor,
      foreign,
    ]);
  });
});
