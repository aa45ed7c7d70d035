import { createHash } from 'node:crypto';
import { sessionCookieOf, signUpOwner, uniqueEmail, type SignedUpOwner } from './support/factories';
import { linkToken, linksOf } from './support/smtp-sink';
import { ACCOUNTS_DASHBOARD, accountsSuite } from './support/accounts-suite';
import { AfterAnswer } from '../src/users/after-answer';

const DASHBOARD = ACCOUNTS_DASHBOARD;
const CONFIRM_SUBJECT = 'Confirm your new email address for Interlock';
const TAKEN_SUBJECT = 'Someone tried to move an Interlock account to your address';
const CHANGED_SUBJECT = 'Your Interlock email address was changed';
const VERIFY_SUBJECT = 'Verify your email address for Interlock';
const VERIFY_TO_CHANGE_EMAIL =
  'Verify your email address before changing it: open the link we emailed you, or ask for a new one in Settings → Security.';
const VERIFY_TO_ENROL_TWO_FACTOR =
  'Verify your email address before turning on two-factor sign-in: open the link we emailed you, or ask for a new one in Settings → Security.';
const CHANGE_LINK_INVALID =
  'This email change link is not valid: it was already used, it expired (links work for 24 hours), a later change replaced it, or it is not one we sent. Ask for the change again in Settings → Profile.';
const TAKEN_MEANWHILE =
  'This address belongs to another Interlock account now: your address was not changed.';
const UNDO_LINK_INVALID =
  'This link is not valid: it was already used, it expired (links work for 7 days), or it is not one we sent. If someone else controls your account, reset your password, or ask your organisation’s owner.';
const UNDO_TAKEN =
  'Your former address belongs to another Interlock account now, so it cannot be restored: ask your organisation’s owner.';
const PASSWORD = 'correct horse battery staple';
/** A token one character away from `token` (never the token itself). */
const altered = (token: string) => `${token.slice(0, 42)}${token.endsWith('A') ? 'B' : 'A'}`;

// Settings → Profile (SPEC §8f, issue 33 §4): the name, and an email change proven at the new
// address before it takes effect, told to the old one with a link that undoes it.
describe('profile and email change (SPEC §8f)', () => {
  const suite = accountsSuite({
    EMAIL_VERIFICATION: 'required',
    SIGN_UP_CONFIRMATION: 'instant',
    RATE_LIMIT_EMAIL_VERIFICATION_EMAILS: '4',
  });
  const { server, http, db, mailsTo } = suite;

  const me = (cookie: string) => http().get('/api/me').set('cookie', cookie);
  const askChange = (cookie: string, email: string, password = PASSWORD) =>
    http().post('/api/me/email').set('cookie', cookie).send({ email, password });
  const confirm = (token: unknown) => http().post('/api/auth/email-change/confirm').send({ token });
  const undo = (token: unknown, password: unknown) =>
    http().post('/api/auth/email-change/undo').send({ token, password });

  async function nthMail(address: string, subject: string, n = 1) {
    await suite.sink.until(() => mailsTo(address, subject).length >= n);
    return mailsTo(address, subject)[n - 1];
  }
  const confirmToken = async (address: string, n = 1) =>
    linkToken(await nthMail(address, CONFIRM_SUBJECT, n), DASHBOARD, 'confirm-email-change');
  const undoToken = async (address: string, n = 1) =>
    linkToken(await nthMail(address, CHANGED_SUBJECT, n), DASHBOARD, 'undo-email-change');

  /** An Owner who opened the sign-up's verification link: an unproven address cannot be changed. */
  async function verifiedOwner(overrides: Parameters<typeof signUpOwner>[1] = {}) {
    const owner = await signUpOwner(server(), overrides);
    const token = linkToken(await nthMail(owner.email, VERIFY_SUBJECT), DASHBOARD, 'verify-email');
    expect((await http().post('/api/auth/verify-email').send({ token })).status).toBe(204);
    return owner;
  }

  async function audit(organisationId: string, userId: string, action: string) {
    return db().query(
      `SELECT actor_type, actor_id, target_type, target_id, target_name, summary, metadata
         FROM audit_log_entries
        WHERE organisation_id = $1 AND target_id = $2 AND action = $3
        ORDER BY seq`,
      [organisationId, userId, action],
    ) as Promise<Record<string, unknown>[]>;
  }

  it('renames the person (trimmed), audited once in each organisation; the same name writes nothing; a blank one is refused', async () => {
    const ada = await signUpOwner(server(), { name: 'Ada Lovelace' });
    const renamed = await http()
      .patch('/api/me')
      .set('cookie', ada.cookie)
      .send({ name: '  Ada King  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user).toMatchObject({ id: ada.memberId, name: 'Ada King' });
    expect(renamed.body.organisations.map((o: { id: string }) => o.id)).toEqual([
      ada.organisationId,
    ]);
    expect((await me(ada.cookie)).body.user.name).toBe('Ada King');
    const again = await http()
      .patch('/api/me')
      .set('cookie', ada.cookie)
      .send({ name: 'Ada King' });
    expect(again.status).toBe(200);
    expect(await audit(ada.organisationId, ada.memberId, 'member.renamed')).toEqual([
      {
        actor_type: 'member',
        actor_id: ada.memberId,
        target_type: 'user',
        target_id: ada.memberId,
        target_name: 'Ada King',
        summary: 'Ada Lovelace changed their name to Ada King',
        metadata: { from: 'Ada Lovelace', to: 'Ada King' },
      },
    ]);
    for (const name of ['   ', '', 'x'.repeat(101)]) {
      const bad = await http().patch('/api/me').set('cookie', ada.cookie).send({ name });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    }
    const unknown = await http()
      .patch('/api/me')
      .set('cookie', ada.cookie)
      .send({ name: 'Ada', email: 'x@example.test' });
    expect(unknown.status).toBe(400);
    expect((await me(ada.cookie)).body.user.name).toBe('Ada King');
    expect((await http().patch('/api/me').send({ name: 'Nobody' })).status).toBe(401);
  });

  it('changes the address only once the link emailed to it is opened; the old address is told; sessions stay', async () => {
    const ada = await verifiedOwner();
    const second = sessionCookieOf(
      await http().post('/api/auth/sign-in').send({ email: ada.email, password: PASSWORD }),
    );
    const next = uniqueEmail('ada-new');

    const wrong = await askChange(ada.cookie, next, 'not the password');
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({
      code: 'WRONG_PASSWORD',
      message: 'The current password is not correct.',
    });
    const same = await askChange(ada.cookie, ada.email.toUpperCase());
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'email is already your address.',
    });
    const asked = await askChange(ada.cookie, `  ${next.toUpperCase()} `.trim());
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ email: next });

    // Nothing changes until the link is used.
    const token = await confirmToken(next);
    expect((await me(ada.cookie)).body.user.email).toBe(ada.email);
    const mail = await nthMail(next, CONFIRM_SUBJECT);
    expect(mail.parsed.text).toContain(`the Interlock account ${ada.email} asked to use ${next}`);
    const [stored] = await db().query(
      `SELECT token_hash, email, extract(epoch FROM expires_at - created_at)::int AS life
         FROM account_tokens WHERE user_id = $1 AND purpose = 'email_change'`,
      [ada.memberId],
    );
    expect(stored).toEqual({
      token_hash: createHash('sha256').update(token).digest('hex'),
      email: next,
      life: 24 * 3600,
    });

    // Any browser, signed in or not.
    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(204);
    const after = await me(ada.cookie);
    expect(after.body.user).toMatchObject({ email: next, emailVerified: true });
    expect((await me(second)).status).toBe(200);
    expect(
      (await http().post('/api/auth/sign-in').send({ email: next, password: PASSWORD })).status,
    ).toBe(200);
    expect(
      (await http().post('/api/auth/sign-in').send({ email: ada.email, password: PASSWORD }))
        .status,
    ).toBe(401);
    expect(await audit(ada.organisationId, ada.memberId, 'member.email_changed')).toEqual([
      {
        actor_type: 'member',
        actor_id: ada.memberId,
        target_type: 'user',
        target_id: ada.memberId,
        target_name: 'Ada Lovelace',
        summary: `Ada Lovelace changed their email address from ${ada.email} to ${next}`,
        metadata: { from: ada.email, to: next, via: 'link', sessionsEnded: 0 },
      },
    ]);

    // The old address is told, with the undo link; the change link worked once.
    const told = await nthMail(ada.email, CHANGED_SUBJECT);
    expect(told.parsed.text).toContain(`changed from ${ada.email} to ${next}`);
    expect(linksOf(told).filter((l) => l.includes('/undo-email-change#'))).toHaveLength(1);
    const [undoRow] = await db().query(
      `SELECT email, extract(epoch FROM expires_at - created_at)::int AS life
         FROM account_tokens WHERE user_id = $1 AND purpose = 'email_revert'`,
      [ada.memberId],
    );
    expect(undoRow).toEqual({ email: ada.email, life: 7 * 24 * 3600 });
    const twice = await confirm(token);
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'INVALID_TOKEN', message: CHANGE_LINK_INVALID });
  });

  it("answers alike for another account's address, which is told by email and gets no link", async () => {
    const ada = await verifiedOwner();
    const grace = await signUpOwner(server(), { name: 'Grace Hopper' });
    const asked = await askChange(ada.cookie, grace.email);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ email: grace.email });
    const note = await nthMail(grace.email, TAKEN_SUBJECT);
    expect(note.parsed.text).toContain(
      `The Interlock account ${ada.email} asked to use ${grace.email} as its address, but ${grace.email} already has an Interlock account of its own. Nothing changed, on either account.`,
    );
    expect(linksOf(note)).toEqual([]);
    const rows = await db().query(
      `SELECT 1 FROM account_tokens WHERE user_id = $1 AND purpose = 'email_change'`,
      [ada.memberId],
    );
    expect(rows).toEqual([]);
    expect((await me(ada.cookie)).body.user.email).toBe(ada.email);
  });

  it('takes only the latest request; refuses a malformed body, bad tokens, and an address taken meanwhile (409, nothing changed)', async () => {
    const ada = await verifiedOwner();
    const first = uniqueEmail('first');
    const latest = uniqueEmail('latest');
    expect((await askChange(ada.cookie, first)).status).toBe(202);
    const firstToken = await confirmToken(first);
    expect((await askChange(ada.cookie, latest)).status).toBe(202);
    const latestToken = await confirmToken(latest);
    expect((await confirm(firstToken)).body).toMatchObject({
      code: 'INVALID_TOKEN',
      message: CHANGE_LINK_INVALID,
    });
    for (const bad of ['short', '', altered(latestToken)]) {
      const res = await confirm(bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_TOKEN', message: CHANGE_LINK_INVALID });
    }
    expect((await confirm(7)).body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(
      (await http().post('/api/me/email').set('cookie', ada.cookie).send({ email: 'nope' })).body,
    ).toMatchObject({ code: 'VALIDATION_FAILED' });

    // Someone signs up with the address before the link is opened.
    await signUpOwner(server(), { email: latest });
    const taken = await confirm(latestToken);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'CONFLICT', message: TAKEN_MEANWHILE });
    expect((await me(ada.cookie)).body.user.email).toBe(ada.email);
    expect(await audit(ada.organisationId, ada.memberId, 'member.email_changed')).toEqual([]);
  });

  it("this wasn't me: the old address's link restores it with a new password and ends every session", async () => {
    const ada: SignedUpOwner = await verifiedOwner();
    const thief = uniqueEmail('thief');
    expect((await askChange(ada.cookie, thief)).status).toBe(202);
    expect((await confirm(await confirmToken(thief))).status).toBe(204);
    const token = await undoToken(ada.email);

    const short = await undo(token, 'short');
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('VALIDATION_FAILED');
    const bad = await undo(altered(token), 'a brand new password');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_TOKEN', message: UNDO_LINK_INVALID });

    const undone = await undo(token, 'a brand new password');
    expect(undone.status).toBe(204);
    expect((await me(ada.cookie)).status).toBe(401);
    const back = await http()
      .post('/api/auth/sign-in')
      .send({ email: ada.email, password: 'a brand new password' });
    expect(back.status).toBe(200);
    expect(back.body.user).toMatchObject({ email: ada.email, emailVerified: true });
    for (const [email, password] of [
      [thief, PASSWORD],
      [ada.email, PASSWORD],
    ])
      expect((await http().post('/api/auth/sign-in').send({ email, password })).status).toBe(401);
    const changes = await audit(ada.organisationId, ada.memberId, 'member.email_changed');
    expect(changes.map((c) => c.metadata)).toEqual([
      { from: ada.email, to: thief, via: 'link', sessionsEnded: 0 },
      { from: thief, to: ada.email, via: 'undo', sessionsEnded: 1 },
    ]);
    expect(changes[1].summary).toBe(
      `Ada Lovelace undid a change of their email address: ${thief} is ${ada.email} again`,
    );
    expect(
      (await audit(ada.organisationId, ada.memberId, 'member.password_changed')).map(
        (e) => e.metadata,
      ),
    ).toEqual([{ via: 'reset', sessionsEnded: 1 }]);
    const twice = await undo(token, 'another new password');
    expect(twice.body).toMatchObject({ code: 'INVALID_TOKEN', message: UNDO_LINK_INVALID });
  });

  it('refuses to undo onto an old address that has another account now (409, nothing changed)', async () => {
    const ada = await verifiedOwner();
    const next = uniqueEmail('next');
    expect((await askChange(ada.cookie, next)).status).toBe(202);
    expect((await confirm(await confirmToken(next))).status).toBe(204);
    const token = await undoToken(ada.email);
    await signUpOwner(server(), { email: ada.email });
    const res = await undo(token, 'a brand new password');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', message: UNDO_TAKEN });
    expect((await me(ada.cookie)).body.user.email).toBe(next);
  });

  it('an unverified address can be neither changed nor given two-factor sign-in (403, before the password is asked); verified, both work', async () => {
    const ada = await signUpOwner(server());
    const setUpTwoFactor = (password: string) =>
      http().post('/api/me/two-factor/setup').set('cookie', ada.cookie).send({ password });
    for (const password of [PASSWORD, 'not the password']) {
      const change = await askChange(ada.cookie, uniqueEmail('ada-new'), password);
      expect(change.status).toBe(403);
      expect(change.body).toMatchObject({
        code: 'EMAIL_NOT_VERIFIED',
        message: VERIFY_TO_CHANGE_EMAIL,
      });
      const twoFactor = await setUpTwoFactor(password);
      expect(twoFactor.status).toBe(403);
      expect(twoFactor.body).toMatchObject({
        code: 'EMAIL_NOT_VERIFIED',
        message: VERIFY_TO_ENROL_TWO_FACTOR,
      });
    }
    await suite.t.app.get(AfterAnswer).settled();
    expect(
      await db().query(
        `SELECT purpose FROM account_tokens WHERE user_id = $1 AND purpose <> 'email_verification'`,
        [ada.memberId],
      ),
    ).toEqual([]);

    const token = linkToken(await nthMail(ada.email, VERIFY_SUBJECT), DASHBOARD, 'verify-email');
    expect((await http().post('/api/auth/verify-email').send({ token })).status).toBe(204);
    const next = uniqueEmail('ada-new');
    expect((await askChange(ada.cookie, next)).body).toEqual({ email: next });
    const twoFactor = await setUpTwoFactor(PASSWORD);
    expect(twoFactor.status).toBe(200);
    expect(twoFactor.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await confirm(await confirmToken(next))).status).toBe(204);
    expect((await me(ada.cookie)).body.user).toMatchObject({ email: next, emailVerified: true });
  });
});
