import { SignUpLinkSeal } from '../src/auth/sign-up-link.util';
import { createApiKey, sessionCookieOf, uniqueEmail } from './support/factories';
import { linkToken, type ReceivedMail, SmtpSink } from './support/smtp-sink';
import { ACCOUNTS_DASHBOARD, accountsSuite } from './support/accounts-suite';

const DASHBOARD = ACCOUNTS_DASHBOARD;
const PEPPER = 'test-pepper-0123456789-0123456789-0123456789';
const FINISH_SUBJECT = 'Finish signing up for Interlock';
const TAKEN_SUBJECT = 'You already have an Interlock account';
const LINK_INVALID =
  'This sign-up link is not valid: it expired (links work for 24 hours), or it is not one we sent. Sign up again.';
const LINK_USED = 'This sign-up link was already used, or the address has an account now: sign in.';

/** The sign-up link's token in both parts of the email (sealed: longer than 43 characters). */
const signUpToken = (mail: ReceivedMail) =>
  linkToken(mail, DASHBOARD, 'complete-sign-up', '[A-Za-z0-9_-]{44,}');

describe('sign-up without enumeration (SPEC §8f, issue 33), SIGN_UP_CONFIRMATION=link', () => {
  const suite = accountsSuite({
    API_KEY_PEPPER: PEPPER,
    // EMAIL_VERIFICATION=required makes SIGN_UP_CONFIRMATION default to link.
    EMAIL_VERIFICATION: 'required',
    RATE_LIMIT_SIGN_UP_ACCOUNT_ATTEMPTS: '2',
  });
  const { server, http, db } = suite;
  let sink: SmtpSink;
  beforeAll(() => ({ sink } = suite));

  const form = (email: string, overrides: Record<string, string> = {}) => ({
    email,
    password: 'correct horse battery staple',
    name: 'Ada Lovelace',
    organisationName: 'Analytical Engines',
    ...overrides,
  });
  const signUp = (body: Record<string, unknown>) => http().post('/api/auth/sign-up').send(body);
  const complete = (token: unknown) => http().post('/api/auth/sign-up/complete').send({ token });
  const usersWith = async (email: string) =>
    Number(
      (await db().query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [email]))[0].n,
    );
  async function mailTo(address: string, subject: string): Promise<ReceivedMail> {
    await sink.until(() => sink.withSubject(address, subject).length > 0);
    return sink.withSubject(address, subject)[0];
  }

  it('answers a taken address exactly as a new one; the emails say what happened', async () => {
    // The taken address: an account made where sign-up signed in at once (an earlier setting).
    const takenEmail = uniqueEmail('taken');
    await db().query(
      `INSERT INTO users (id, email, name, password_hash, email_verified_at)
       VALUES (gen_random_uuid(), $1, 'Grace Hopper', 'scrypt$unused', now())`,
      [takenEmail],
    );
    const newEmail = uniqueEmail('new');

    const taken = await signUp(form(takenEmail.toUpperCase(), { name: 'Mallory' }));
    const fresh = await signUp(form(newEmail.toUpperCase()));
    for (const [res, email] of [
      [taken, takenEmail],
      [fresh, newEmail],
    ] as const) {
      expect(res.status).toBe(202);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ email });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Same status, same header names, same body shape.
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    // Nothing made yet for the new address; the taken one still has its one account.
    expect(await usersWith(newEmail)).toBe(0);
    expect(await usersWith(takenEmail)).toBe(1);

    const note = await mailTo(takenEmail, TAKEN_SUBJECT);
    expect(note.parsed.text).toContain(
      `Hello Grace Hopper, someone (perhaps you) tried to sign up for Interlock with ${takenEmail}, which already has an account. No new account was made, and nothing about yours changed.`,
    );
    expect(note.parsed.text).toContain(`Sign in: ${DASHBOARD}/sign-in`);
    expect(note.parsed.text).toContain(`${DASHBOARD}/reset-password`);
    expect(note.parsed.text).not.toContain('complete-sign-up');
    expect(sink.withSubject(takenEmail, FINISH_SUBJECT)).toEqual([]);

    const finish = await mailTo(newEmail, FINISH_SUBJECT);
    expect(finish.parsed.text).toContain(
      `Hello Ada Lovelace, someone (we hope you) signed up for Interlock with ${newEmail}, to create the organisation Analytical Engines.`,
    );
    expect(sink.withSubject(newEmail, TAKEN_SUBJECT)).toEqual([]);
  });

  it('the link makes the account (address verified), its organisation and a session, once; audited', async () => {
    const email = uniqueEmail('linked');
    expect((await signUp(form(email))).status).toBe(202);
    const token = signUpToken(await mailTo(email, FINISH_SUBJECT));

    const done = await complete(token);
    expect(done.status).toBe(201);
    expect(done.body.user).toEqual({
      id: expect.any(String),
      email,
      name: 'Ada Lovelace',
      emailVerified: true,
    });
    expect(done.body.organisation).toMatchObject({ name: 'Analytical Engines' });
    const cookie = sessionCookieOf(done);
    const me = await http().get('/api/me').set('cookie', cookie);
    expect(me.status).toBe(200);
    expect(me.body.user.emailVerified).toBe(true);
    expect((await createApiKey(server(), cookie)).key).toMatch(/^ilk_/);

    // The password given at sign-up is the account's.
    const signIn = await http()
      .post('/api/auth/sign-in')
      .send({ email, password: 'correct horse battery staple' });
    expect(signIn.status).toBe(200);

    const audit = await db().query(
      `SELECT action, actor_type, actor_id, target_id, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND action = 'member.email_verified'`,
      [done.body.organisation.id],
    );
    expect(audit).toEqual([
      {
        action: 'member.email_verified',
        actor_type: 'member',
        actor_id: done.body.user.id,
        target_id: done.body.user.id,
        metadata: { email, via: 'sign_up_link' },
      },
    ]);

    // Once: the address has its account now.
    const again = await complete(token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_TOKEN', message: LINK_USED });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(await usersWith(email)).toBe(1);
  });

  it('refuses altered, foreign and expired links, and a body without a string token; nothing is made', async () => {
    const email = uniqueEmail('refused');
    expect((await signUp(form(email))).status).toBe(202);
    const token = signUpToken(await mailTo(email, FINISH_SUBJECT));
    const flipped = `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
    const now = Date.now();
    const pending = {
      email,
      name: 'Ada',
      organisationName: 'Expired Engines',
      passwordHash: 'scrypt$x',
    };
    const expired = new SignUpLinkSeal(PEPPER).seal({ ...pending, expiresAt: now - 1 });
    const foreign = new SignUpLinkSeal(`${PEPPER}-another-server`).seal({
      ...pending,
      expiresAt: now + 3_600_000,
    });
    for (const bad of [flipped, expired, foreign, 'short', '']) {
      const res = await complete(bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_TOKEN', message: LINK_INVALID });
    }
    expect((await complete(42)).body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await usersWith(email)).toBe(0);
    // The real link still works afterwards.
    expect((await complete(token)).status).toBe(201);
  });

  it('an address signed up meanwhile (another link used first) keeps its one account', async () => {
    const email = uniqueEmail('twice');
    expect((await signUp(form(email, { organisationName: 'First' }))).status).toBe(202);
    const first = signUpToken(await mailTo(email, FINISH_SUBJECT));
    expect((await signUp(form(email, { organisationName: 'Second' }))).status).toBe(202);
    await sink.until(() => sink.withSubject(email, FINISH_SUBJECT).length === 2);
    const second = signUpToken(sink.withSubject(email, FINISH_SUBJECT)[1]);
    const [a, b] = await Promise.all([complete(first), complete(second)]);
    expect([a.status, b.status].sort()).toEqual([201, 400]);
    expect((a.status === 400 ? a : b).body).toMatchObject({
      code: 'INVALID_TOKEN',
      message: LINK_USED,
    });
    expect(await usersWith(email)).toBe(1);
    const organisations = await db().query(
      `SELECT count(*)::int AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1`,
      [email],
    );
    expect(organisations[0].n).toBe(1);
  });

  it('throttles per address alike: the third try is 429 for a taken and a new address the same way', async () => {
    // RATE_LIMIT_SIGN_UP_ACCOUNT_ATTEMPTS is 2 here; counted whether or not the address has an account.
    const takenEmail = uniqueEmail('taken-throttle');
    await db().query(
      `INSERT INTO users (id, email, name, password_hash) VALUES (gen_random_uuid(), $1, 'Grace', 'scrypt$unused')`,
      [takenEmail],
    );
    for (const email of [takenEmail, uniqueEmail('new-throttle')]) {
      expect((await signUp(form(email))).status).toBe(202);
      expect((await signUp(form(email))).status).toBe(202);
      const over = await signUp(form(email));
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ code: 'RATE_LIMITED' });
    }
  });
});
