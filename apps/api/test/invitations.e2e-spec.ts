import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from './support/test-app';
import {
  builtInRoleIds,
  createApiKey,
  sessionCookieOf,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery staple';

describe('invitations (SPEC §6, member.invite)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let other: SignedUpOwner;
  let roles: Record<'owner' | 'developer' | 'manager', string>;

  const http = () => request(t.app.getHttpServer());
  const db = () => t.app.get(DataSource);

  async function invite(cookie: string, roleId: string, email = uniqueEmail('invitee')) {
    const res = await http().post('/api/invitations').set('cookie', cookie).send({ email, roleId });
    expect(res.status).toBe(201);
    return res.body as {
      id: string;
      email: string;
      roleId: string;
      createdAt: string;
      expiresAt: string;
      token: string;
    };
  }

  const accept = (
    token: string,
    body: Record<string, unknown> = { name: 'Grace Hopper', password: PASSWORD },
  ) => http().post(`/api/invitations/${token}/accept`).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    other = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates an invitation: the token shown once, only its SHA-256 stored, valid for exactly 7 days', async () => {
    const email = uniqueEmail('Invitee').toUpperCase();
    const res = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email, roleId: roles.manager });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: email.toLowerCase(),
      roleId: roles.manager,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(7 * DAY_MS);
    const [row] = await db().query(
      `SELECT token_hash, invited_by FROM invitations WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, res.body.id],
    );
    expect(row.token_hash).toBe(createHash('sha256').update(res.body.token).digest('hex'));
    expect(row.invited_by).toBe(owner.memberId);
    const dump = JSON.stringify(await db().query(`SELECT * FROM invitations`));
    expect(dump).not.toContain(res.body.token);
  });

  it('lists pending and accepted invitations, newest first, without tokens', async () => {
    const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Listing' });
    const orgRoles = await builtInRoleIds(t.app.getHttpServer(), org.cookie);
    const first = await invite(org.cookie, orgRoles.manager);
    const second = await invite(org.cookie, orgRoles.developer);
    const expired = await invite(org.cookie, orgRoles.manager);
    await db().query(
      `UPDATE invitations SET expires_at = now() - interval '1 second' WHERE organisation_id = $1 AND id = $2`,
      [org.organisationId, expired.id],
    );
    expect((await accept(first.token)).status).toBe(201);
    // Only a pending invitation can be withdrawn: an accepted one is not found (and stays listed).
    expect(
      (await http().delete(`/api/invitations/${first.id}`).set('cookie', org.cookie)).status,
    ).toBe(404);
    const res = await http().get('/api/invitations').set('cookie', org.cookie);
    expect(res.status).toBe(200);
    expect(res.body.invitations.map((i: { id: string }) => i.id)).toEqual([second.id, first.id]);
    expect(res.body.invitations[0]).toEqual({
      id: second.id,
      email: second.email,
      roleId: orgRoles.developer,
      createdAt: second.createdAt,
      expiresAt: second.expiresAt,
      acceptedAt: null,
    });
    expect(res.body.invitations[1].acceptedAt).toEqual(expect.any(String));
    expect(res.text).not.toContain('token');
    const elsewhere = await http().get('/api/invitations').set('cookie', other.cookie);
    expect(elsewhere.body.invitations).toEqual([]);
  });

  it('accepts an invitation: joins with its role, signs in, answers like sign-up', async () => {
    const sent = await invite(owner.cookie, roles.developer);
    const res = await accept(sent.token, { name: 'Grace Hopper', password: PASSWORD });
    expect(res.status).toBe(201);
    const signUpShape = await http()
      .post('/api/auth/sign-up')
      .send({ email: uniqueEmail(), password: PASSWORD, name: 'X', organisationName: 'Y' });
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(signUpShape.body).sort());
    const joined = {
      id: owner.organisationId,
      name: 'Analytical Engines',
      plan: 'free',
      roleId: roles.developer,
      roleName: 'Developer',
      joinedAt: expect.any(String),
    };
    expect(res.body).toEqual({
      user: {
        id: expect.any(String),
        email: sent.email,
        name: 'Grace Hopper',
        emailVerified: false,
      },
      organisations: [joined],
      organisation: joined,
    });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const session = await http().get('/api/auth/session').set('cookie', sessionCookieOf(res));
    expect(session.status).toBe(200);
    expect(session.body.member.id).toBe(res.body.user.id);
    expect(session.body.permissions).toContain('apiKey.create');

    const signIn = await http()
      .post('/api/auth/sign-in')
      .send({ email: sent.email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const [row] = await db().query(
      `SELECT accepted_at FROM invitations WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, sent.id],
    );
    expect(row.accepted_at).toBeInstanceOf(Date);
  });

  it('answers 404 Not found. for a used, expired, unknown or malformed token', async () => {
    const used = await invite(owner.cookie, roles.manager);
    expect((await accept(used.token)).status).toBe(201);
    const expired = await invite(owner.cookie, roles.manager);
    await db().query(
      `UPDATE invitations SET expires_at = now() - interval '1 second' WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, expired.id],
    );
    for (const token of [used.token, expired.token, 'A'.repeat(43), 'short', 'x'.repeat(300)]) {
      const res = await accept(token, { name: 'Nobody', password: PASSWORD });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    }
    const [{ count }] = await db().query(
      `SELECT count(*)::int AS count FROM users WHERE name = 'Nobody'`,
    );
    expect(count).toBe(0);
  });

  it('lets only one of two concurrent accepts of the same token through', async () => {
    const sent = await invite(owner.cookie, roles.manager);
    const results = await Promise.all([accept(sent.token), accept(sent.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 404]);
  });

  it.each([
    [{ name: 'Grace', password: 'short' }, 'password'],
    [{ name: 'Grace', password: 'p'.repeat(201) }, 'password'],
    [{ name: '', password: PASSWORD }, 'name'],
    [{ password: PASSWORD }, 'name'],
    [{ name: 'Grace', password: PASSWORD, roleId: 'x' }, 'roleId'],
  ])('refuses an accept body %j with 400 naming %s', async (body, field) => {
    const sent = await invite(owner.cookie, roles.manager);
    const res = await accept(sent.token, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(field);
  });

  it.each([
    [{ email: 'not an email', roleId: '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10' }, 'email'],
    [{ email: 'a@example.test', roleId: 'manager' }, 'roleId'],
    [{ email: 'a@example.test' }, 'roleId'],
    [
      { email: 'a@example.test', roleId: '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10', token: 'x' },
      'token',
    ],
  ])('refuses an invitation body %j with 400 naming %s', async (body, field) => {
    const res = await http().post('/api/invitations').set('cookie', owner.cookie).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(field);
  });

  it('answers an address with an account elsewhere exactly as a fresh one (no enumeration oracle)', async () => {
    const withAccount = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email: other.email.toUpperCase(), roleId: roles.manager });
    const fresh = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email: uniqueEmail(), roleId: roles.manager });
    const shape = (res: request.Response) => ({
      status: res.status,
      type: res.headers['content-type'],
      fields: Object.fromEntries(
        Object.entries(res.body as Record<string, unknown>).map(([k, v]) => [k, typeof v]),
      ),
    });
    expect(shape(withAccount)).toEqual(shape(fresh));
    expect(withAccount.status).toBe(201);
    expect(withAccount.body.email).toBe(other.email);
  });

  it('a conflict is only about this organisation: a current member, or a pending invitation (withdrawn, it may be sent again)', async () => {
    const member = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email: owner.email.toUpperCase(), roleId: roles.manager });
    expect(member.status).toBe(409);
    expect(member.body).toMatchObject({
      code: 'CONFLICT',
      message: 'This email address is already a member of this organisation.',
    });

    const email = uniqueEmail('pending');
    const first = await invite(owner.cookie, roles.manager, email);
    const again = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email, roleId: roles.developer });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'CONFLICT',
      message: 'This email address already has a pending invitation to this organisation.',
    });
    // Another organisation's pending invitation to the same address is no conflict here.
    const otherRoles = await builtInRoleIds(t.app.getHttpServer(), other.cookie);
    expect(
      (
        await http()
          .post('/api/invitations')
          .set('cookie', other.cookie)
          .send({ email, roleId: otherRoles.manager })
      ).status,
    ).toBe(201);

    // Withdrawn: the token stops working, the address may be invited again, and it is audited.
    expect(
      (await http().delete(`/api/invitations/${first.id}`).set('cookie', other.cookie)).status,
    ).toBe(404);
    expect(
      (await http().delete(`/api/invitations/${first.id}`).set('cookie', owner.cookie)).status,
    ).toBe(204);
    expect(
      (await http().delete(`/api/invitations/${first.id}`).set('cookie', owner.cookie)).status,
    ).toBe(404);
    expect((await accept(first.token)).status).toBe(404);
    expect((await http().get(`/api/invitations/${first.token}/preview`)).status).toBe(404);
    await invite(owner.cookie, roles.developer, email);
    const [entry] = await db().query(
      `SELECT action, actor_id, target_id, metadata FROM audit_log_entries WHERE organisation_id = $1 AND action = 'member.invitation_deleted'`,
      [owner.organisationId],
    );
    expect(entry).toEqual({
      action: 'member.invitation_deleted',
      actor_id: owner.memberId,
      target_id: first.id,
      metadata: {
        email,
        roleId: roles.manager,
        role: 'Manager',
        state: 'pending',
        reason: 'withdrawn',
      },
    });
  });

  it('shows what an invitation offers to whoever holds its token', async () => {
    const sent = await invite(owner.cookie, roles.developer);
    const res = await http().get(`/api/invitations/${sent.token}/preview`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      email: sent.email,
      organisationName: 'Analytical Engines',
      roleName: 'Developer',
      expiresAt: sent.expiresAt,
    });
    for (const token of ['A'.repeat(43), 'short'])
      expect((await http().get(`/api/invitations/${token}/preview`)).status).toBe(404);
  });

  it('an address that has an account signs in and joins; signing up from the link answers 409', async () => {
    const email = uniqueEmail('twice');
    const mine = await invite(owner.cookie, roles.manager, email);
    const theirs = await invite(
      other.cookie,
      (await builtInRoleIds(t.app.getHttpServer(), other.cookie)).manager,
      email,
    );
    const first = await accept(theirs.token);
    expect(first.status).toBe(201);
    // The account holding the address never verified it: the answer says how its owner claims it.
    const unverified = await accept(mine.token);
    expect(unverified.status).toBe(409);
    expect(unverified.body).toMatchObject({
      code: 'CONFLICT',
      message:
        'An account with this email already exists, but its address was never verified. If it is yours, sign in, then accept the invitation; if it is not, choose "Forgot your password?" on the sign-in page: the link goes only to this mailbox, and the account becomes yours.',
    });
    await db().query(`UPDATE users SET email_verified_at = now() WHERE email = $1`, [email]);
    const res = await accept(mine.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'CONFLICT',
      message: 'An account with this email already exists: sign in, then accept the invitation.',
    });
    const joined = await http()
      .post(`/api/invitations/${mine.token}/join`)
      .set('cookie', sessionCookieOf(first));
    expect(joined.status).toBe(201);
    expect(joined.body.organisation).toMatchObject({
      id: owner.organisationId,
      roleName: 'Manager',
    });
    expect(joined.body.organisations.map((o: { id: string }) => o.id).sort()).toEqual(
      [owner.organisationId, other.organisationId].sort(),
    );
    expect(
      (
        await http()
          .post(`/api/invitations/${mine.token}/join`)
          .set('cookie', sessionCookieOf(first))
      ).status,
    ).toBe(404);
  });

  it('answers 404 for a role of another organisation or an unknown one', async () => {
    const theirs = await builtInRoleIds(t.app.getHttpServer(), other.cookie);
    for (const roleId of [theirs.manager, '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10']) {
      const res = await http()
        .post('/api/invitations')
        .set('cookie', owner.cookie)
        .send({ email: uniqueEmail(), roleId });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    }
  });

  describe('the built-in Manager (member.invite) and Developer (without it)', () => {
    let manager: string;
    let developer: string;

    beforeAll(async () => {
      manager = sessionCookieOf(
        await accept((await invite(owner.cookie, roles.manager)).token, {
          name: 'Mary Manager',
          password: PASSWORD,
        }),
      );
      developer = sessionCookieOf(
        await accept((await invite(owner.cookie, roles.developer)).token, {
          name: 'Dev Eloper',
          password: PASSWORD,
        }),
      );
    });

    it('a Manager lists and invites with a role within their permissions', async () => {
      expect((await http().get('/api/invitations').set('cookie', manager)).status).toBe(200);
      const res = await http()
        .post('/api/invitations')
        .set('cookie', manager)
        .send({ email: uniqueEmail(), roleId: roles.manager });
      expect(res.status).toBe(201);
    });

    it('a Manager cannot invite with a role holding more than theirs', async () => {
      for (const roleId of [roles.developer, roles.owner]) {
        const res = await http()
          .post('/api/invitations')
          .set('cookie', manager)
          .send({ email: uniqueEmail(), roleId });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: apiKey.create.',
        });
      }
    });

    it('a Developer gets 403 Missing permission: member.invite.', async () => {
      for (const res of [
        await http().get('/api/invitations').set('cookie', developer),
        await http()
          .post('/api/invitations')
          .set('cookie', developer)
          .send({ email: uniqueEmail(), roleId: roles.manager }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: member.invite.',
        });
      }
    });
  });

  it('answers 401 to listing or inviting without a session', async () => {
    const res = await http().get('/api/invitations');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Sign-in required.');
  });

  it('answers 403 to a request carrying x-api-key, accepting included', async () => {
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie);
    const sent = await invite(owner.cookie, roles.manager);
    const list = await http()
      .get('/api/invitations')
      .set('x-api-key', key.key)
      .set('cookie', owner.cookie);
    const acc = await http()
      .post(`/api/invitations/${sent.token}/accept`)
      .set('x-api-key', key.key)
      .send({ name: 'Agent', password: PASSWORD });
    for (const res of [list, acc]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'HUMANS_ONLY',
        message: 'This endpoint is reserved for humans.',
      });
    }
    // The refused accept did not use the invitation.
    expect((await accept(sent.token)).status).toBe(201);
  });

  it('writes member.invited and member.joined entries', async () => {
    const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Audited' });
    const orgRoles = await builtInRoleIds(t.app.getHttpServer(), org.cookie);
    const sent = await invite(org.cookie, orgRoles.manager);
    await http()
      .post('/api/invitations')
      .set('cookie', org.cookie)
      .send({ email: org.email, roleId: orgRoles.manager }); // 409
    const joined = await accept(sent.token, { name: 'Grace Hopper', password: PASSWORD });
    const rows = await db().query(
      `SELECT action, actor_type, actor_id, actor_name, target_type, target_id, target_name, summary FROM audit_log_entries
        WHERE organisation_id = $1 AND category = 'member' ORDER BY created_at, id`,
      [org.organisationId],
    );
    expect(rows).toEqual([
      {
        action: 'member.invited',
        actor_type: 'member',
        actor_id: org.memberId,
        actor_name: 'Ada Lovelace',
        target_type: 'invitation',
        target_id: sent.id,
        target_name: sent.email,
        summary: `${sent.email} invited as Manager by Ada Lovelace`,
      },
      {
        action: 'member.joined',
        actor_type: 'member',
        actor_id: joined.body.user.id,
        actor_name: 'Grace Hopper',
        target_type: 'user',
        target_id: joined.body.user.id,
        target_name: 'Grace Hopper',
        summary: 'Grace Hopper joined as Manager',
      },
    ]);
  });
});
