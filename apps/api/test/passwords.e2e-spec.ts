import { createHash } from 'node:crypto';
import request from 'supertest';
import { hashPassword } from '../src/auth/password.util';
import { PasswordsService } from '../src/users/passwords.service';
import { totpCode } from '../src/users/totp.util';
import {
  builtInRoleIds,
  joinWithAccount,
  sessionCookieOf,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';
import { linkToken, SmtpSink } from './support/smtp-sink';
import { ACCOUNTS_DASHBOARD, accountsSuite } from './support/accounts-suite';
import { startTestApp, type TestApp } from './support/test-app';

const DASHBOARD = ACCOUNTS_DASHBOARD;
const RESET_LINK_INVALID =
  'This password reset link is not valid: it was already used, it expired (links work for 30 minutes), or it is not one we sent. Ask for a new one.';
const RESET_SUBJECT = 'Reset your Interlock password';
const CHANGED_SUBJECT = 'Your Interlock password was changed';

describe('passwords (SPEC §8f, issue 33): reset by email, change, hashing', () => {
  const suite = accountsSuite({
    // This file's many requests come from one address: the address limit has its own test.
    RATE_LIMIT_PASSWORD_RESET_ADDRESS_REQUESTS: '100000',
  });
  const { http, db, mailsTo } = suite;
  let t: TestApp;
  let sink: SmtpSink;
  beforeAll(() => ({ t, sink } = suite));
  const settled = () => t.app.get(PasswordsService).settled();

  /** The token of the newest reset email to `address`, from its text and its HTML alike. */
  function tokenOf(address: string): string {
    const mails = mailsTo(address, RESET_SUBJECT);
    return linkToken(mails[mails.length - 1], DASHBOARD, 'reset-password');
  }

  async function askReset(email: string, count: number): Promise<string> {
    const asked = await http().post('/api/auth/password-reset').send({ email });
    expect(asked.status).toBe(202);
    await sink.until(() => mailsTo(email.trim().toLowerCase(), RESET_SUBJECT).length >= count);
    return tokenOf(email.trim().toLowerCase());
  }

  const signIn = (email: string, password: string) =>
    http().post('/api/auth/sign-in').send({ email, password });

  async function passwordAudit(organisationId: string, userId: string) {
    return db().query(
      `SELECT action, category, actor_type, actor_id, actor_name, target_type, target_id, summary, metadata, ip_address
         FROM audit_log_entries
        WHERE organisation_id = $1 AND target_id = $2 AND action = 'member.password_changed'
        ORDER BY seq`,
      [organisationId, userId],
    ) as Promise<Record<string, unknown>[]>;
  }

  it("a reset proves an unverified address: it retires every pending link and removes a two-factor set up before (a squatter's), audited", async () => {
    // A squatter made the account with its own password (never proving the address), turned on
    // two-factor and asked to move the account to its own address.
    const alice = await signUpOwner(t.app.getHttpServer(), { name: 'Alice' });
    const setup = await http()
      .post('/api/me/two-factor/setup')
      .set('cookie', alice.cookie)
      .send({ password: alice.password });
    expect(setup.status).toBe(200);
    const on = await http()
      .post('/api/me/two-factor/confirm')
      .set('cookie', alice.cookie)
      .send({ code: totpCode(setup.body.secret, Date.now()) });
    expect(on.status).toBe(200);
    const moved = await http()
      .post('/api/me/email')
      .set('cookie', alice.cookie)
      .send({ email: `squatter-${alice.memberId}@example.org`, password: alice.password });
    expect(moved.status).toBe(202);
    await settled();
    const pending = () =>
      db().query(
        `SELECT purpose FROM account_tokens WHERE user_id = $1 AND used_at IS NULL ORDER BY purpose`,
        [alice.memberId],
      );
    expect(await pending()).toEqual([{ purpose: 'email_change' }]);

    // The real owner resets the password from the mailbox.
    const token = await askReset(alice.email, 1);
    const confirmed = await http()
      .post('/api/auth/password-reset/confirm')
      .send({ token, password: 'the real owner passphrase' });
    expect(confirmed.status).toBe(204);
    expect(await pending()).toEqual([]);
    const signedIn = await signIn(alice.email, 'the real owner passphrase');
    expect(signedIn.status).toBe(200);
    expect(
      await db().query(`SELECT 1 FROM user_two_factor WHERE user_id = $1`, [alice.memberId]),
    ).toEqual([]);
    expect(
      await db().query(`SELECT 1 FROM user_recovery_codes WHERE user_id = $1`, [alice.memberId]),
    ).toEqual([]);
    const [user] = await db().query(`SELECT email_verified_at FROM users WHERE id = $1`, [
      alice.memberId,
    ]);
    expect(user.email_verified_at).not.toBeNull();
    const audit = await db().query(
      `SELECT action, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND target_id = $2
          AND action IN ('member.two_factor_disabled', 'member.email_verified')
        ORDER BY seq`,
      [alice.organisationId, alice.memberId],
    );
    expect(audit).toEqual([
      { action: 'member.email_verified', metadata: { email: alice.email, via: 'password_reset' } },
      { action: 'member.two_factor_disabled', metadata: { method: 'totp', via: 'password_reset' } },
    ]);
    await settled();
  });

  it('resets by an emailed single-use link: every session ends, the old password stops working, audited in every organisation', async () => {
    const ada = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    const other = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    // Ada is a member of a second organisation, and signed in on a second device.
    const roles = await builtInRoleIds(t.app.getHttpServer(), other.cookie);
    await joinWithAccount(t.app.getHttpServer(), other.cookie, roles.manager, ada);
    const secondDevice = sessionCookieOf(await signIn(ada.email, ada.password));

    const asked = await http()
      .post('/api/auth/password-reset')
      .send({ email: ada.email.toUpperCase() });
    expect(asked.status).toBe(202);
    expect(asked.text).toBe('');
    await sink.until(() => mailsTo(ada.email, RESET_SUBJECT).length === 1);
    const token = tokenOf(ada.email);
    const mail = mailsTo(ada.email, RESET_SUBJECT)[0];
    expect(mail.from).toBe('accounts@interlock.test');
    expect(mail.parsed.text).toContain('The link works once, for 30 minutes.');

    // Only the token's SHA-256 is kept; it expires 30 minutes after it was made.
    const [stored] = await db().query(
      `SELECT token_hash, email, expires_at - created_at AS life, used_at FROM account_tokens WHERE user_id = $1 AND purpose = 'password_reset'`,
      [ada.memberId],
    );
    expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(stored.email).toBe(ada.email);
    expect(stored.life).toEqual({ minutes: 30 });
    expect(stored.used_at).toBeNull();

    const confirmed = await http()
      .post('/api/auth/password-reset/confirm')
      .send({ token, password: 'a brand new passphrase' });
    expect(confirmed.status).toBe(204);

    for (const cookie of [ada.cookie, secondDevice]) {
      expect((await http().get('/api/me').set('cookie', cookie)).status).toBe(401);
    }
    expect((await signIn(ada.email, ada.password)).status).toBe(401);
    expect((await signIn(ada.email, 'a brand new passphrase')).status).toBe(200);

    // Single use.
    const again = await http()
      .post('/api/auth/password-reset/confirm')
      .send({ token, password: 'yet another passphrase' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      code: 'INVALID_TOKEN',
      message: RESET_LINK_INVALID,
    });
    expect((await signIn(ada.email, 'a brand new passphrase')).status).toBe(200);

    for (const organisationId of [ada.organisationId, other.organisationId]) {
      expect(await passwordAudit(organisationId, ada.memberId)).toEqual([
        {
          action: 'member.password_changed',
          category: 'member',
          actor_type: 'member',
          actor_id: ada.memberId,
          actor_name: 'Ada Lovelace',
          target_type: 'user',
          target_id: ada.memberId,
          summary: 'Ada Lovelace reset their password with an emailed link',
          metadata: { via: 'reset', sessionsEnded: 2 },
          ip_address: expect.any(String),
        },
      ]);
    }
    // The person hears of it.
    await sink.until(() => mailsTo(ada.email, CHANGED_SUBJECT).length === 1);
    expect(mailsTo(ada.email, CHANGED_SUBJECT)[0].parsed.text).toContain(
      'was reset with an emailed link',
    );

    // The token never reached a log line.
    await settled();
    expect(JSON.stringify(t.logs)).not.toContain(token);
  });

  it('answers an address without an account exactly as one with, and emails nobody', async () => {
    const nobody = uniqueEmail('nobody');
    const ada = await signUpOwner(t.app.getHttpServer());
    const unknown = await http().post('/api/auth/password-reset').send({ email: nobody });
    const known = await http().post('/api/auth/password-reset').send({ email: ada.email });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    await sink.until(() => mailsTo(ada.email, RESET_SUBJECT).length === 1);
    await settled();
    expect(sink.to(nobody)).toEqual([]);
  });

  it('refuses an expired, unknown or malformed token alike, and a short password as a validation error', async () => {
    const ada = await signUpOwner(t.app.getHttpServer());
    const token = await askReset(ada.email, 1);
    await db().query(
      `UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'password_reset'`,
      [ada.memberId],
    );
    for (const bad of [token, `${token.slice(0, 42)}A`, 'short', '']) {
      const res = await http()
        .post('/api/auth/password-reset/confirm')
        .send({ token: bad, password: 'a brand new passphrase' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_TOKEN', message: RESET_LINK_INVALID });
    }
    expect((await signIn(ada.email, ada.password)).status).toBe(200);

    const fresh = await askReset(ada.email, 2);
    const short = await http()
      .post('/api/auth/password-reset/confirm')
      .send({ token: fresh, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(short.body.message).toContain('password');
    const noEmail = await http().post('/api/auth/password-reset').send({ email: 'not-an-address' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    // A refused confirmation used nothing: the fresh link still works.
    expect(
      (
        await http()
          .post('/api/auth/password-reset/confirm')
          .send({ token: fresh, password: 'a brand new passphrase' })
      ).status,
    ).toBe(204);
  });

  it('retires the other links when one is used; two concurrent uses of one link: exactly one wins', async () => {
    const ada = await signUpOwner(t.app.getHttpServer());
    const first = await askReset(ada.email, 1);
    const second = await askReset(ada.email, 2);
    expect(second).not.toBe(first);
    const both = await Promise.all(
      ['one passphrase here', 'another passphrase'].map((password) =>
        http().post('/api/auth/password-reset/confirm').send({ token: second, password }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([204, 400]);
    const usedFirst = await http()
      .post('/api/auth/password-reset/confirm')
      .send({ token: first, password: 'a third passphrase' });
    expect(usedFirst.status).toBe(400);
    expect(await passwordAudit(ada.organisationId, ada.memberId)).toHaveLength(1);
  });

  it('sends at most 3 reset emails per account an hour, still answering 202', async () => {
    const ada = await signUpOwner(t.app.getHttpServer());
    for (let i = 0; i < 5; i++) {
      expect(
        (await http().post('/api/auth/password-reset').send({ email: ada.email })).status,
      ).toBe(202);
    }
    await settled();
    await sink.until(() => mailsTo(ada.email, RESET_SUBJECT).length === 3);
    expect(mailsTo(ada.email, RESET_SUBJECT)).toHaveLength(3);
    expect(
      t.logs.some(
        (l) =>
          l.userId === ada.memberId &&
          String(l.msg).startsWith('password reset: this account asked for more emails'),
      ),
    ).toBe(true);
  });

  describe('change (signed in)', () => {
    let ada: SignedUpOwner;
    beforeAll(async () => {
      ada = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    });

    it('needs the current password: a wrong one is 403, the same one again is 400, nothing changes', async () => {
      const wrong = await http()
        .post('/api/me/password')
        .set('cookie', ada.cookie)
        .send({ currentPassword: 'not my password', newPassword: 'a brand new passphrase' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({
        statusCode: 403,
        error: 'Forbidden',
        code: 'WRONG_PASSWORD',
        message: 'The current password is not correct.',
      });
      const same = await http()
        .post('/api/me/password')
        .set('cookie', ada.cookie)
        .send({ currentPassword: ada.password, newPassword: ada.password });
      expect(same.status).toBe(400);
      expect(same.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'newPassword must differ from currentPassword.',
      });
      const short = await http()
        .post('/api/me/password')
        .set('cookie', ada.cookie)
        .send({ currentPassword: ada.password, newPassword: 'short' });
      expect(short.status).toBe(400);
      expect((await signIn(ada.email, ada.password)).status).toBe(200);
      expect(await passwordAudit(ada.organisationId, ada.memberId)).toEqual([]);
      expect(
        (
          await http()
            .post('/api/me/password')
            .send({ currentPassword: ada.password, newPassword: 'a brand new passphrase' })
        ).status,
      ).toBe(401);
    });

    it('changes it: this session stays, the others end, audited and emailed', async () => {
      const otherDevice = sessionCookieOf(await signIn(ada.email, ada.password));
      const changed = await http()
        .post('/api/me/password')
        .set('cookie', ada.cookie)
        .send({ currentPassword: ada.password, newPassword: 'a brand new passphrase' });
      expect(changed.status).toBe(204);
      expect((await http().get('/api/me').set('cookie', ada.cookie)).status).toBe(200);
      expect((await http().get('/api/me').set('cookie', otherDevice)).status).toBe(401);
      expect((await signIn(ada.email, ada.password)).status).toBe(401);
      expect((await signIn(ada.email, 'a brand new passphrase')).status).toBe(200);
      const [entry] = await passwordAudit(ada.organisationId, ada.memberId);
      expect(entry).toMatchObject({
        summary: 'Ada Lovelace changed their password',
        metadata: { via: 'change', sessionsEnded: 2 },
      });
      await sink.until(() => mailsTo(ada.email, CHANGED_SUBJECT).length === 1);
    });

    it('counts wrong current passwords as failed sign-ins of the account (one throttle)', async () => {
      const bob = await signUpOwner(t.app.getHttpServer());
      for (let i = 0; i < 10; i++) {
        expect(
          (
            await http()
              .post('/api/me/password')
              .set('cookie', bob.cookie)
              .send({ currentPassword: `guess ${i}`, newPassword: 'a brand new passphrase' })
          ).status,
        ).toBe(403);
      }
      const limited = await http()
        .post('/api/me/password')
        .set('cookie', bob.cookie)
        .send({ currentPassword: bob.password, newPassword: 'a brand new passphrase' });
      expect(limited.status).toBe(429);
      expect((await signIn(bob.email, bob.password)).status).toBe(429);
    });
  });

  it('upgrades a hash made at an older cost at the next sign-in', async () => {
    const ada = await signUpOwner(t.app.getHttpServer());
    await db().query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [
      ada.memberId,
      await hashPassword(ada.password, 10),
    ]);
    expect((await signIn(ada.email, ada.password)).status).toBe(200);
    const [{ password_hash: upgraded }] = await db().query(
      `SELECT password_hash FROM users WHERE id = $1`,
      [ada.memberId],
    );
    // The test app's cost (PASSWORD_SCRYPT_LOG_N=12); production's is 2^17.
    expect(upgraded).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect((await signIn(ada.email, ada.password)).status).toBe(200);
    expect((await signIn(ada.email, 'wrong password')).status).toBe(401);
  });
});

describe('password reset requests are throttled per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PASSWORD_RESET_ADDRESS_REQUESTS: '2' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 with Retry-After past the limit, whatever the addresses asked for', async () => {
    const ask = (email: string) =>
      request(t.app.getHttpServer()).post('/api/auth/password-reset').send({ email });
    expect((await ask(uniqueEmail())).status).toBe(202);
    expect((await ask(uniqueEmail())).status).toBe(202);
    const refused = await ask(uniqueEmail());
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many requests. Try again later.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await t.app.get(PasswordsService).settled();
  });
});
