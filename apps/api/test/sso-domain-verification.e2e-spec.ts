import type request from 'supertest';
import type { AppConfig } from '../src/config/app-config';
import { APP_CONFIG } from '../src/config/config.module';
import { AfterAnswer } from '../src/users/after-answer';
import { signUpOwner } from './support/factories';
import { finishAtService, signInWithSso, walkThroughProvider } from './support/oidc-provider';
import {
  SSO_CLIENT as CLIENT,
  SSO_REDIRECT as REDIRECT,
  ssoDomainSuite,
  type DomainShown,
} from './support/sso-domain-suite';

const SSO_SESSION =
  'You signed in with single sign-on, which acts only for the organisation that signed you in: sign in with your password to';

describe('single sign-on email domains are proven by DNS (SPEC §8f, issue 33 §3)', () => {
  const suite = ssoDomainSuite();
  const { server, http, db, newDomain, as, managerRoleOf, claim, shown, verify, prove } = suite;

  it("the attack: an organisation that merely names another's domain cannot sign in as that domain's existing account", async () => {
    const d = newDomain('victim');
    const alice = await signUpOwner(server(), {
      email: `alice@${d}`,
      name: 'Alice',
      organisationName: 'Victim Inc',
    });
    const own = newDomain('evil');
    const evil = await claim([own, d], 'Evil Corp');
    await prove(evil, own);
    // It cannot prove the victim's domain: the victim's DNS holds no record of its token.
    const refused = await verify(evil, d);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('DOMAIN_NOT_VERIFIED');

    // The sign-in is not routed by an unproven domain: no flow starts.
    const start = await http().post('/api/auth/sso').send({ email: alice.email });
    expect(start.status).toBe(404);
    expect(start.body).toMatchObject({
      code: 'SSO_NOT_CONFIGURED',
      message: `No organisation signs in addresses at ${d} with single sign-on: sign in with your password.`,
    });

    // A flow started for the attacker's own proven domain, answered by its provider with
    // Alice's address (email_verified true): refused, nothing linked, no session.
    const walk = await walkThroughProvider(server(), REDIRECT, `mallory@${own}`, alice.email);
    const finish = await finishAtService(server(), walk.flow, walk.query);
    expect(finish.status).toBe(401);
    expect(finish.body).toMatchObject({
      code: 'SSO_SIGN_IN_FAILED',
      message: `${alice.email} is at ${d}, which this organisation has not verified for single sign-on yet: ask your administrator.`,
    });
    expect(String(finish.headers['set-cookie'] ?? '')).not.toMatch(/(^|,\s*)session=[^;]/);
    const identities = await db().query(`SELECT 1 FROM sso_identities WHERE user_id = $1`, [
      alice.memberId,
    ]);
    expect(identities).toHaveLength(0);
    const memberships = await db().query(
      `SELECT 1 FROM memberships WHERE user_id = $1 AND organisation_id = $2`,
      [alice.memberId, evil.organisationId],
    );
    expect(memberships).toHaveLength(0);
  });

  it('a link made before domains were proven signs in only the account at a domain the organisation holds verified; links go when their domain or the connection does', async () => {
    const victim = newDomain('victim');
    const alice = await signUpOwner(server(), {
      email: `alice@${victim}`,
      name: 'Alice',
      organisationName: 'Victim Inc',
    });
    const own = newDomain('evil');
    const evil = await claim([own], 'Evil Corp');
    await prove(evil, own);
    // Before the fix any sign-in linked at once: the attacker's subject is linked to Alice.
    const mallory = `mallory@${own}`;
    await db().query(
      `INSERT INTO sso_identities (organisation_id, issuer, subject, user_id) VALUES ($1, $2, $3, $4)`,
      [evil.organisationId, suite.op.issuer, mallory, alice.memberId],
    );
    const bob = await signInWithSso(server(), REDIRECT, `bob@${own}`);
    const linksOf = async (userId: string) =>
      (
        await db().query(
          `SELECT 1 FROM sso_identities WHERE organisation_id = $1 AND user_id = $2`,
          [evil.organisationId, userId],
        )
      ).length;
    expect(await linksOf(bob.body.user.id)).toBe(1);

    // The provider answers that subject with an address of the proven domain: refused.
    const walk = await walkThroughProvider(server(), REDIRECT, mallory);
    const finish = await finishAtService(server(), walk.flow, walk.query);
    expect(finish.status).toBe(401);
    expect(finish.body).toMatchObject({
      code: 'SSO_SIGN_IN_FAILED',
      message:
        'This single sign-on identity is linked to an account whose address this organisation has not verified for single sign-on: ask your administrator.',
    });
    expect(String(finish.headers['set-cookie'] ?? '')).not.toMatch(/(^|,\s*)session=[^;]/);
    expect(
      await db().query(`SELECT 1 FROM memberships WHERE user_id = $1 AND organisation_id = $2`, [
        alice.memberId,
        evil.organisationId,
      ]),
    ).toHaveLength(0);
    // A link whose account is at the proven domain still signs in.
    const again = await signInWithSso(server(), REDIRECT, `bob@${own}`);
    expect(again.body.user.id).toBe(bob.body.user.id);

    // Saving the domains forgets the links of accounts at no domain the organisation names.
    const later = newDomain('later');
    const roleId = await managerRoleOf(evil);
    const save = (allowedDomains: string[]) =>
      as(evil, http().put('/api/organisation/sso')).send({
        issuer: suite.op.issuer,
        clientId: CLIENT.client_id,
        clientSecret: CLIENT.client_secret,
        allowedDomains,
        defaultRoleId: roleId,
      });
    expect((await save([own, later])).status).toBe(200);
    expect(await linksOf(alice.memberId)).toBe(0);
    expect(await linksOf(bob.body.user.id)).toBe(1);
    // The proven domain leaves the list: its accounts' links go.
    expect((await save([later])).status).toBe(200);
    expect(await linksOf(bob.body.user.id)).toBe(0);
    // Removing the connection forgets every link of the organisation.
    await db().query(
      `INSERT INTO sso_identities (organisation_id, issuer, subject, user_id) VALUES ($1, $2, $3, $4)`,
      [evil.organisationId, suite.op.issuer, `bob@${own}`, bob.body.user.id],
    );
    expect((await as(evil, http().delete('/api/organisation/sso'))).status).toBe(204);
    expect(await linksOf(bob.body.user.id)).toBe(0);
  });

  it('shows the TXT record to publish; refuses a missing record, another token and an unreachable resolver; verifies once (audited); one organisation per proven domain', async () => {
    const d = newDomain();
    const owner = await claim([d], 'Acme');
    const record = await shown(owner, d);
    expect(record).toEqual({
      domain: d,
      verifiedAt: null,
      lastCheckedAt: null,
      failedChecks: 0,
      recordName: `_interlock-challenge.${d}`,
      recordValue: expect.stringMatching(/^interlock-domain-verification=[0-9a-f]{32}$/),
    });
    const token = record.recordValue.slice('interlock-domain-verification='.length);

    const missing = await verify(owner, d);
    expect(missing.status).toBe(409);
    expect(missing.body).toMatchObject({
      code: 'DOMAIN_NOT_VERIFIED',
      message: `No TXT record interlock-domain-verification=… was found at _interlock-challenge.${d}: publish interlock-domain-verification=${token} there, then verify again (DNS changes can take a while to show).`,
    });
    suite.dns.publish(record.recordName, [
      'v=spf1 -all',
      'interlock-domain-verification=0123456789abcdef',
    ]);
    const mismatch = await verify(owner, d);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({
      code: 'DOMAIN_NOT_VERIFIED',
      message: `The TXT record at _interlock-challenge.${d} holds another token: publish interlock-domain-verification=${token} there, then verify again.`,
    });
    suite.dns.publish(record.recordName, ['v=spf1 -all', record.recordValue]);
    suite.dns.mode('servfail');
    try {
      const unreachable = await verify(owner, d);
      expect(unreachable.status).toBe(503);
      expect(unreachable.headers['retry-after']).toBe('30');
      expect(unreachable.body).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: `Could not look up _interlock-challenge.${d}: the DNS resolver did not answer (ESERVFAIL). Try again shortly.`,
      });
    } finally {
      suite.dns.mode('ok');
    }
    expect((await shown(owner, d)).verifiedAt).toBeNull();
    const notOurs = await verify(owner, newDomain());
    expect(notOurs.status).toBe(404);

    const verified = await verify(owner, d);
    expect(verified.status).toBe(200);
    expect(verified.body.connection.domains).toEqual([
      { ...record, verifiedAt: expect.any(String) },
    ]);
    expect((await verify(owner, d)).status).toBe(200);
    const audit = await db().query(
      `SELECT summary, metadata FROM audit_log_entries WHERE organisation_id = $1 AND action = 'settings.sso_domain_verified'`,
      [owner.organisationId],
    );
    expect(audit).toEqual([
      {
        summary: `${d} verified for single sign-on by Ada Lovelace`,
        metadata: { domain: d, recordName: `_interlock-challenge.${d}` },
      },
    ]);

    // Proven: nobody else can name it. Named before it was proven: nobody else can prove it.
    const other = await signUpOwner(server());
    const taken = await as(other, http().put('/api/organisation/sso')).send({
      issuer: suite.op.issuer,
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      allowedDomains: [d],
      defaultRoleId: await managerRoleOf(other),
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(
      `${d} is signed in by another organisation's single sign-on already.`,
    );
    const e = newDomain();
    const first = await claim([e], 'First');
    const second = await claim([e], 'Second');
    await prove(second, e);
    const late = await verify(first, e);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      code: 'CONFLICT',
      message: `${e} is signed in by another organisation's single sign-on already.`,
    });
    // Changing the connection keeps a proven domain's proof and token.
    const kept = await as(second, http().put('/api/organisation/sso')).send({
      issuer: suite.op.issuer,
      clientId: CLIENT.client_id,
      allowedDomains: [e, newDomain()],
      defaultRoleId: await managerRoleOf(second),
    });
    expect(kept.status).toBe(200);
    expect(
      (kept.body.connection.domains as DomainShown[]).find((x) => x.domain === e)?.verifiedAt,
    ).toEqual(expect.any(String));
  });

  it('proofs that ask DNS are throttled per organisation: past the limit 429 with Retry-After and the resolver is not asked; another organisation still proves (SPEC §8b)', async () => {
    const { organisationRequests, windowSeconds } =
      suite.t.app.get<AppConfig>(APP_CONFIG).rateLimits.ssoDomainVerify;
    const [d, pending] = [newDomain(), newDomain()];
    const owner = await claim([d, pending], 'Acme');
    await prove(owner, d);
    // What asks no resolver spends nothing: a domain not named, one verified already.
    for (let i = 0; i < 3; i++) {
      expect((await verify(owner, newDomain())).status).toBe(404);
      expect((await verify(owner, d)).status).toBe(200);
    }
    for (let i = 1; i < organisationRequests; i++)
      expect((await verify(owner, pending)).status).toBe(409);
    const name = `_interlock-challenge.${pending}`;
    const askedBefore = suite.dns.asked.filter((n) => n === name).length;
    const refused = await verify(owner, pending);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests. Try again later.',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(suite.dns.asked.filter((n) => n === name).length).toBe(askedBefore);
    expect((await verify(owner, d)).status).toBe(200);
    const other = await claim([pending], 'Other');
    const asked = await verify(other, pending);
    expect(asked.status).toBe(409);
    expect(asked.body.code).toBe('DOMAIN_NOT_VERIFIED');
  });

  it('refuses public email domains', async () => {
    const owner = await signUpOwner(server());
    for (const domain of ['gmail.com', 'outlook.com', 'proton.me', 'gmx.de', 'yahoo.co.uk']) {
      const put = await as(owner, http().put('/api/organisation/sso')).send({
        issuer: suite.op.issuer,
        clientId: CLIENT.client_id,
        clientSecret: CLIENT.client_secret,
        allowedDomains: [newDomain(), domain],
        defaultRoleId: await managerRoleOf(owner),
      });
      expect(put.status).toBe(400);
      expect(put.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: `${domain} is a public email domain: anyone can get an address there, so no organisation can sign it in with single sign-on.`,
      });
    }
    expect((await as(owner, http().get('/api/organisation/sso'))).body.connection).toBeNull();
  });

  it('an unproven domain provisions nobody; once proven, the first sign-in provisions', async () => {
    const own = newDomain();
    const pending = newDomain();
    const owner = await claim([own, pending], 'Acme');
    await prove(owner, own);
    const walk = await walkThroughProvider(server(), REDIRECT, `grace@${own}`, `new@${pending}`);
    const refused = await finishAtService(server(), walk.flow, walk.query);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(
      `new@${pending} is at ${pending}, which this organisation has not verified for single sign-on yet: ask your administrator.`,
    );
    expect(await db().query(`SELECT 1 FROM users WHERE email = $1`, [`new@${pending}`])).toEqual(
      [],
    );
    await prove(owner, pending);
    const signedIn = await signInWithSso(server(), REDIRECT, `new@${pending}`);
    expect(signedIn.body.organisation.id).toBe(owner.organisationId);
  });

  it('links an existing account only when the same browser signed in with its password; tells the person by email', async () => {
    const d = newDomain();
    const owner = await claim([d], 'Acme');
    await prove(owner, d);
    const linus = await signUpOwner(server(), {
      email: `linus@${d}`,
      name: 'Linus',
      organisationName: 'Linus Inc',
    });
    const message = `An account with ${linus.email} exists already: to link it to single sign-on, sign in with its password in this browser first, then sign in with single sign-on again.`;

    const bare = await walkThroughProvider(server(), REDIRECT, linus.email);
    const refused = await finishAtService(server(), bare.flow, bare.query);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'SSO_SIGN_IN_FAILED', message });
    // Another person's password session is no proof.
    const other = await walkThroughProvider(server(), REDIRECT, linus.email);
    const foreign = await http()
      .post('/api/auth/sso/callback')
      .set('cookie', `${other.flow}; ${owner.cookie}`)
      .send({ callbackQuery: other.query });
    expect(foreign.status).toBe(401);
    expect(foreign.body.message).toBe(message);
    expect(
      await db().query(`SELECT 1 FROM sso_identities WHERE user_id = $1`, [linus.memberId]),
    ).toHaveLength(0);

    const proven = await walkThroughProvider(server(), REDIRECT, linus.email);
    const linked = await http()
      .post('/api/auth/sso/callback')
      .set('cookie', `${proven.flow}; ${linus.cookie}`)
      .send({ callbackQuery: proven.query });
    expect(linked.status).toBe(200);
    expect(linked.body.user.id).toBe(linus.memberId);
    const audit = await db().query(
      `SELECT summary FROM audit_log_entries WHERE organisation_id = $1 AND action = 'member.sso_linked'`,
      [owner.organisationId],
    );
    expect(audit).toEqual([{ summary: 'Linus signed in with single sign-on for the first time' }]);
    await suite.t.app.get(AfterAnswer).settled();
    const subject = 'Your Interlock account now signs in with Acme’s single sign-on';
    await suite.sink.until(() => suite.sink.withSubject(linus.email, subject).length === 1);
    expect(suite.sink.withSubject(linus.email, subject)[0]?.parsed.text).toContain(
      `your Interlock account ${linus.email} was linked to the single sign-on of Acme (${suite.op.issuer})`,
    );
    // Linked: later sign-ins need no password session.
    const again = await signInWithSso(server(), REDIRECT, linus.email);
    expect(again.body.user.id).toBe(linus.memberId);
  });

  it('a single sign-on session does not change the account itself (email, password, two-factor, other sessions); it renames and signs itself out', async () => {
    const d = newDomain();
    const owner = await claim([d], 'Acme');
    await prove(owner, d);
    const { cookie, body } = await signInWithSso(server(), REDIRECT, `hedy@${d}`);
    const sessions = await http().get('/api/me/sessions').set('cookie', cookie);
    expect(sessions.status).toBe(200);
    const refusals: [request.Test, string][] = [
      [
        http()
          .post('/api/me/email')
          .send({ email: `x@${d}`, password: 'whatever-123' }),
        'change your email address',
      ],
      [
        http()
          .post('/api/me/password')
          .send({ currentPassword: 'whatever-123', newPassword: 'another password 123' }),
        'change your password',
      ],
      [
        http().post('/api/me/two-factor/setup').send({ password: 'whatever-123' }),
        'change your two-factor sign-in',
      ],
      [
        http().post('/api/me/two-factor/confirm').send({ code: '123456' }),
        'change your two-factor sign-in',
      ],
      [
        http()
          .post('/api/me/two-factor/disable')
          .send({ password: 'whatever-123', code: '123456' }),
        'change your two-factor sign-in',
      ],
      [
        http().post('/api/me/two-factor/recovery-codes').send({ password: 'whatever-123' }),
        'change your two-factor sign-in',
      ],
      [http().post('/api/me/sessions/revoke-others'), 'end your other sign-in sessions'],
    ];
    for (const [req, what] of refusals) {
      const res = await req.set('cookie', cookie);
      expect([res.status, res.body.code, res.body.message]).toEqual([
        403,
        'FORBIDDEN',
        `${SSO_SESSION} ${what}.`,
      ]);
    }
    // Another session of the same person (a second single sign-on) is not ended from this one.
    const second = await signInWithSso(server(), REDIRECT, `hedy@${d}`);
    const listed = await http().get('/api/me/sessions').set('cookie', second.cookie);
    const others = (listed.body.sessions as { id: string; current: boolean }[]).filter(
      (s) => !s.current,
    );
    expect(others.length).toBeGreaterThan(0);
    const endOther = await http()
      .delete(`/api/me/sessions/${others[0]?.id}`)
      .set('cookie', second.cookie);
    expect(endOther.status).toBe(403);
    expect(endOther.body.message).toBe(`${SSO_SESSION} end your other sign-in sessions.`);

    const renamed = await http().patch('/api/me').set('cookie', cookie).send({ name: 'Hedy L.' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user).toMatchObject({ id: body.user.id, name: 'Hedy L.' });
    const own = (sessions.body.sessions as { id: string; current: boolean }[]).find(
      (s) => s.current,
    );
    const out = await http().delete(`/api/me/sessions/${own?.id}`).set('cookie', cookie);
    expect(out.status).toBe(204);
    expect((await http().get('/api/me').set('cookie', cookie)).status).toBe(401);
    // A password session of the same kind of request works (the narrowing is the session's).
    const mine = await http().post('/api/me/sessions/revoke-others').set('cookie', owner.cookie);
    expect(mine.status).toBe(204);
  });
});
