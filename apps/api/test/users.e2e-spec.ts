import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinWithAccount,
  openInterrupt,
  sessionCookieOf,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';
import { SseClient } from './support/sse-client';
import { startTestApp, TestApp } from './support/test-app';

const ORG = 'x-organisation-id';

// Issue 18: one person, several organisations. Ada owns A; Babbage owns B and invites Ada as a
// Developer. One user, one sign-in, two memberships — and each request acts with one of them.
describe('users and memberships (one person, several organisations)', () => {
  let t: TestApp;
  let ada: SignedUpOwner; // Owner of A, Developer of B
  let babbage: SignedUpOwner; // Owner of B
  let a: string;
  let b: string;
  const http = () => request(t.app.getHttpServer());
  const db = () => t.app.get(DataSource);
  const inA = (req: request.Test) => req.set('cookie', ada.cookie).set(ORG, a);
  const inB = (req: request.Test) => req.set('cookie', ada.cookie).set(ORG, b);

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    const server = t.app.getHttpServer();
    ada = await signUpOwner(server, {
      name: 'Ada Lovelace',
      organisationName: 'Analytical Engines',
    });
    babbage = await signUpOwner(server, {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    a = ada.organisationId;
    b = babbage.organisationId;
    const bRoles = await builtInRoleIds(server, babbage.cookie);
    await joinWithAccount(server, babbage.cookie, bRoles.developer, ada);
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/me lists the user and both organisations with their role in each', async () => {
    const me = await http().get('/api/me').set('cookie', ada.cookie);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user: { id: ada.memberId, email: ada.email, name: 'Ada Lovelace', emailVerified: false },
      organisations: [
        {
          id: a,
          name: 'Analytical Engines',
          plan: 'free',
          roleId: expect.any(String),
          roleName: 'Owner',
          joinedAt: expect.any(String),
        },
        {
          id: b,
          name: 'Difference Engines',
          plan: 'free',
          roleId: expect.any(String),
          roleName: 'Developer',
          joinedAt: expect.any(String),
        },
      ],
    });
    // One user: the same id is the member id in both organisations.
    const sessionA = await inA(http().get('/api/auth/session'));
    const sessionB = await inB(http().get('/api/auth/session'));
    expect(sessionA.body.member).toMatchObject({ id: ada.memberId, roleName: 'Owner' });
    expect(sessionB.body.member).toMatchObject({ id: ada.memberId, roleName: 'Developer' });
    expect(sessionB.body.organisation).toMatchObject({ id: b, name: 'Difference Engines' });
    const [{ count }] = await db().query(
      `SELECT count(*)::int AS count FROM users WHERE email = $1`,
      [ada.email],
    );
    expect(count).toBe(1);
  });

  it('in B they cannot do what only an Owner can; in A they can — the chosen membership only', async () => {
    const ownerOnly: [string, (req: (r: request.Test) => request.Test) => request.Test, string][] =
      [
        [
          'billing.manage',
          (as) => as(http().put('/api/organisation/plan')).send({ plan: 'pro' }),
          'PUT /api/organisation/plan',
        ],
        [
          'role.manage',
          (as) =>
            as(http().post('/api/roles')).send({
              name: `r-${Date.now()}`,
              permissions: ['apiKey.read'],
            }),
          'POST /api/roles',
        ],
        // (Listing members is open to whoever may assign, as a Developer may; changing a role is not.)
        [
          'member.manage',
          (as) => as(http().patch(`/api/members/${ada.memberId}`)).send({ roleId: 'not-a-uuid' }),
          'PATCH /api/members/:id',
        ],
        [
          'team.manage',
          (as) => as(http().post('/api/teams')).send({ name: `t-${Date.now()}` }),
          'POST /api/teams',
        ],
        ['member.invite', (as) => as(http().get('/api/invitations')), 'GET /api/invitations'],
      ];
    for (const [permission, send, label] of ownerOnly) {
      const refused = await send(inB);
      expect({ label, status: refused.status, body: refused.body }).toMatchObject({
        label,
        status: 403,
        body: { code: 'MISSING_PERMISSION', message: `Missing permission: ${permission}.` },
      });
      const allowed = await send(inA);
      expect({ label, status: allowed.status }).toEqual({ label, status: expect.any(Number) });
      // Past the permission check (PATCH /api/members here: 400 for the made-up role id).
      expect(label === 'PATCH /api/members/:id' ? [400] : [200, 201]).toContain(allowed.status);
    }
    // B's plan did not change; A's did, and the entry names Ada in A's log only.
    expect((await http().get('/api/organisation').set('cookie', babbage.cookie)).body.plan).toBe(
      'free',
    );
    expect((await inA(http().get('/api/organisation'))).body.plan).toBe('pro');
    const entries = await db().query(
      `SELECT organisation_id, actor_id FROM audit_log_entries WHERE action = 'billing.plan_changed' AND actor_id = $1`,
      [ada.memberId],
    );
    expect(entries).toEqual([{ organisation_id: a, actor_id: ada.memberId }]);
    // What a Developer may do in B, Ada does there — as herself, in B's log.
    const key = await inB(http().post('/api/api-keys')).send({ name: 'b-key', expiry: 'never' });
    expect(key.status).toBe(201);
    const [created] = await db().query(
      `SELECT organisation_id, created_by FROM api_keys WHERE id = $1`,
      [key.body.id],
    );
    expect(created).toEqual({ organisation_id: b, created_by: ada.memberId });
  });

  it('names the organisation explicitly: none with several answers 400, another one 404, a malformed one 400', async () => {
    const none = await http().get('/api/organisation').set('cookie', ada.cookie);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'x-organisation-id header is required: you are a member of several organisations.',
    });
    const stranger = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Stranger' });
    for (const org of [stranger.organisationId, '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10']) {
      const res = await http().get('/api/organisation').set('cookie', ada.cookie).set(ORG, org);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    }
    const malformed = await http()
      .get('/api/organisation')
      .set('cookie', ada.cookie)
      .set(ORG, 'analytical-engines');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('x-organisation-id header must be a UUID.');
    // A member of one organisation may leave it out (or name it).
    expect((await http().get('/api/organisation').set('cookie', babbage.cookie)).body.id).toBe(b);
    // A key acts for its own organisation: a header naming it is fine, one naming another
    // answers 404 (as for a member), a malformed one 400 — the key is checked first.
    const key = await createApiKey(t.app.getHttpServer(), babbage.cookie);
    expect((await http().get('/api/interrupts').set('x-api-key', key.key).set(ORG, b)).status).toBe(
      200,
    );
    const elsewhere = await http().get('/api/interrupts').set('x-api-key', key.key).set(ORG, a);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    const garbled = await http().get('/api/interrupts').set('x-api-key', key.key).set(ORG, '{}');
    expect(garbled.status).toBe(400);
    expect(garbled.body.message).toBe('x-organisation-id header must be a UUID.');
    const badKey = await http().get('/api/interrupts').set('x-api-key', 'not-a-key').set(ORG, '{}');
    expect(badKey.status).toBe(401);
  });

  it('the event stream takes the organisation from its query (EventSource sends no headers), checked the same way', async () => {
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    const key = await createApiKey(t.app.getHttpServer(), babbage.cookie, { name: 'b-agent' });
    const inBStream = await SseClient.open(`${base}/api/events?organisationId=${b}`, {
      cookie: ada.cookie,
    });
    const inAStream = await SseClient.open(`${base}/api/events?organisationId=${a}`, {
      cookie: ada.cookie,
    });
    const elsewhere = await SseClient.open(
      `${base}/api/events?organisationId=5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10`,
      { cookie: ada.cookie },
    );
    try {
      expect([inBStream.status, inAStream.status, elsewhere.status]).toEqual([200, 200, 404]);
      await inBStream.until(() => inBStream.events.length === 1);
      await inAStream.until(() => inAStream.events.length === 1);
      const opened = await openInterrupt(t.app.getHttpServer(), key.key, { title: 'Only in B' });
      await inBStream.until(() => inBStream.events.some((e) => e.event === 'interrupt.created'));
      expect(JSON.stringify(inBStream.events)).toContain(opened.id);
      // A's stream heard nothing of it (it would have arrived by now: the same announcement woke B's).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(inAStream.events.map((e) => e.event)).toEqual(['ready']);
    } finally {
      for (const c of [inBStream, inAStream, elsewhere]) c.close();
    }
  });

  it('a signed-in person creates another organisation and owns it', async () => {
    const carol = await signUpOwner(t.app.getHttpServer(), {
      name: 'Carol Shaw',
      organisationName: 'Production',
    });
    const created = await http()
      .post('/api/organisations')
      .set('cookie', carol.cookie)
      .send({ name: 'Staging' });
    expect(created.status).toBe(201);
    expect(created.body.organisation).toMatchObject({
      name: 'Staging',
      plan: 'free',
      roleName: 'Owner',
    });
    expect(created.body.organisations.map((o: { id: string }) => o.id)).toEqual([
      carol.organisationId,
      created.body.organisation.id,
    ]);
    const staging = created.body.organisation.id as string;
    const session = await http()
      .get('/api/auth/session')
      .set('cookie', carol.cookie)
      .set(ORG, staging);
    expect(session.body.permissions).toContain('billing.manage');
    const [entry] = await db().query(
      `SELECT action, actor_id FROM audit_log_entries WHERE organisation_id = $1`,
      [staging],
    );
    expect(entry).toEqual({ action: 'organisation.created', actor_id: carol.memberId });
    for (const body of [
      {},
      { name: ' ' },
      { name: 'x'.repeat(101) },
      { name: 'ok', plan: 'pro' },
    ]) {
      expect(
        (await http().post('/api/organisations').set('cookie', carol.cookie).send(body)).status,
      ).toBe(400);
    }
    expect((await http().post('/api/organisations').send({ name: 'Anonymous' })).status).toBe(401);
  });

  it('inviting an address with an account elsewhere answers as a fresh one; the person accepts signed in and sees both', async () => {
    const grace = await signUpOwner(t.app.getHttpServer(), {
      name: 'Grace Hopper',
      organisationName: 'Compilers',
    });
    const aRoles = (await inA(http().get('/api/roles'))).body.roles as {
      id: string;
      builtIn: string | null;
    }[];
    const manager = aRoles.find((r) => r.builtIn === 'manager')?.id as string;
    const existing = await inA(http().post('/api/invitations')).send({
      email: grace.email,
      roleId: manager,
    });
    const fresh = await inA(http().post('/api/invitations')).send({
      email: uniqueEmail('fresh'),
      roleId: manager,
    });
    expect(existing.status).toBe(201);
    expect(existing.status).toBe(fresh.status);
    expect(Object.keys(existing.body).sort()).toEqual(Object.keys(fresh.body).sort());

    // Someone else signed in cannot take Grace's invitation.
    const other = await http()
      .post(`/api/invitations/${existing.body.token}/join`)
      .set('cookie', babbage.cookie);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This invitation was sent to another email address.',
    });

    const joined = await http()
      .post(`/api/invitations/${existing.body.token}/join`)
      .set('cookie', grace.cookie);
    expect(joined.status).toBe(201);
    const me = await http().get('/api/me').set('cookie', grace.cookie);
    expect(
      me.body.organisations.map((o: { name: string; roleName: string }) => [o.name, o.roleName]),
    ).toEqual([
      ['Compilers', 'Owner'],
      ['Analytical Engines', 'Manager'],
    ]);
    // The same sign-in acts in A now, as a Manager.
    expect(
      (await http().get('/api/auth/session').set('cookie', grace.cookie).set(ORG, a)).body.member
        .roleName,
    ).toBe('Manager');
    const [entry] = await db().query(
      `SELECT actor_id, target_id FROM audit_log_entries WHERE organisation_id = $1 AND action = 'member.joined' AND actor_id = $2`,
      [a, grace.memberId],
    );
    expect(entry).toEqual({ actor_id: grace.memberId, target_id: grace.memberId });
  });

  it('removing the user from B leaves A untouched, sign-in sessions included; they may join B again', async () => {
    // A second sign-in of Ada's (another browser), to check sessions are kept, not only the cookie.
    const second = await http()
      .post('/api/auth/sign-in')
      .send({ email: ada.email, password: ada.password });
    expect(second.status).toBe(200);
    const secondCookie = sessionCookieOf(second);
    const before = await db().query(
      `SELECT id FROM sign_in_sessions WHERE user_id = $1 ORDER BY id`,
      [ada.memberId],
    );
    const membershipA = await db().query(
      `SELECT role_id, joined_at, left_at FROM memberships WHERE organisation_id = $1 AND user_id = $2`,
      [a, ada.memberId],
    );

    const removed = await http()
      .delete(`/api/members/${ada.memberId}`)
      .set('cookie', babbage.cookie);
    expect(removed.status).toBe(204);

    expect(
      await db().query(`SELECT id FROM sign_in_sessions WHERE user_id = $1 ORDER BY id`, [
        ada.memberId,
      ]),
    ).toEqual(before);
    expect(
      await db().query(
        `SELECT role_id, joined_at, left_at FROM memberships WHERE organisation_id = $1 AND user_id = $2`,
        [a, ada.memberId],
      ),
    ).toEqual(membershipA);
    for (const cookie of [ada.cookie, secondCookie]) {
      const inAStill = await http().get('/api/auth/session').set('cookie', cookie).set(ORG, a);
      expect(inAStill.status).toBe(200);
      expect(inAStill.body.member.roleName).toBe('Owner');
      // The only organisation left: naming it is optional again.
      expect((await http().get('/api/organisation').set('cookie', cookie)).body.id).toBe(a);
      const inBNoMore = await http().get('/api/organisation').set('cookie', cookie).set(ORG, b);
      expect(inBNoMore.status).toBe(404);
    }
    expect(
      (await http().get('/api/me').set('cookie', ada.cookie)).body.organisations.map(
        (o: { id: string }) => o.id,
      ),
    ).toEqual([a]);
    const bMembers = (await http().get('/api/members').set('cookie', babbage.cookie)).body
      .members as { id: string }[];
    expect(bMembers.map((m) => m.id)).toEqual([babbage.memberId]);
    // B's log keeps her name as it was; her earlier entries in B still name her id.
    const [entry] = await db().query(
      `SELECT target_id, target_name, summary FROM audit_log_entries WHERE organisation_id = $1 AND action = 'member.removed'`,
      [b],
    );
    expect(entry).toEqual({
      target_id: ada.memberId,
      target_name: 'Ada Lovelace',
      summary: 'Ada Lovelace removed by Charles Babbage',
    });

    // Invited again, she joins again: the membership begins anew, with the new role.
    const bRoles = await builtInRoleIds(t.app.getHttpServer(), babbage.cookie);
    const again = await joinWithAccount(t.app.getHttpServer(), babbage.cookie, bRoles.manager, ada);
    expect(again.organisations.find((o) => o.id === b)?.roleName).toBe('Manager');
    const [rejoined] = await db().query(
      `SELECT metadata FROM audit_log_entries WHERE organisation_id = $1 AND action = 'member.joined' ORDER BY seq DESC LIMIT 1`,
      [b],
    );
    expect(rejoined.metadata).toMatchObject({ role: 'Manager', rejoined: true });
  });

  it('sign-out ends the sign-in for every organisation', async () => {
    const signIn = await http()
      .post('/api/auth/sign-in')
      .send({ email: ada.email, password: ada.password });
    const cookie = sessionCookieOf(signIn);
    expect((await http().post('/api/auth/sign-out').set('cookie', cookie)).status).toBe(204);
    for (const org of [a, b]) {
      const res = await http().get('/api/auth/session').set('cookie', cookie).set(ORG, org);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Sign-in required.');
    }
    expect((await http().get('/api/me').set('cookie', cookie)).status).toBe(401);
  });
});
