import { createHash } from 'node:crypto';
import {
  builtInRoleIds,
  createApiKey,
  openInterrupt,
  sessionCookieOf,
  signUpOwner,
  uniqueEmail,
} from './support/factories';
import { linkToken, SmtpSink } from './support/smtp-sink';
import { ACCOUNTS_DASHBOARD, accountsSuite } from './support/accounts-suite';

const DASHBOARD = ACCOUNTS_DASHBOARD;
const VERIFY_SUBJECT = 'Verify your email address for Interlock';
const RESET_SUBJECT = 'Reset your Interlock password';
const LINK_INVALID =
  'This verification link is not valid: it was already used, it expired (links work for 24 hours), or it is not one we sent. Sign in to ask for a new one.';
const VERIFY_TO_JOIN =
  'Verify your email address before accepting an invitation: open the link we emailed you, or ask for a new one in the dashboard.';
const ALREADY_VERIFIED = 'Your email address is already verified.';
const PROOF_INVALID =
  "This invitation link's address proof is not valid: open the link in the invitation email again.";

describe('email verification (SPEC §8f, issue 33), EMAIL_VERIFICATION=required', () => {
  const suite = accountsSuite({
    EMAIL_VERIFICATION: 'required',
    // Sign-up signs in at once here, so these tests have unverified accounts to verify.
    SIGN_UP_CONFIRMATION: 'instant',
    RATE_LIMIT_EMAIL_VERIFICATION_EMAILS: '2',
    RATE_LIMIT_PASSWORD_RESET_ADDRESS_REQUESTS: '100000',
  });
  const { server, http, db, mailsTo } = suite;
  let sink: SmtpSink;
  beforeAll(() => ({ sink } = suite));

  /** The token of the `n`th (1-based) email of `subject` to `address`, once it arrived. */
  async function tokenIn(address: string, subject: string, n: number, page: string) {
    await sink.until(() => mailsTo(address, subject).length >= n);
    return linkToken(mailsTo(address, subject)[n - 1], DASHBOARD, page);
  }
  const verificationToken = (address: string, n = 1) =>
    tokenIn(address, VERIFY_SUBJECT, n, 'verify-email');

  const verify = (token: unknown) => http().post('/api/auth/verify-email').send({ token });
  const me = async (cookie: string) => (await http().get('/api/me').set('cookie', cookie)).body;

  async function invite(inviterCookie: string, email: string): Promise<string> {
    const roles = await builtInRoleIds(server(), inviterCookie);
    const res = await http()
      .post('/api/invitations')
      .set('cookie', inviterCookie)
      .send({ email, roleId: roles.manager });
    expect(res.status).toBe(201);
    return res.body.token as string;
  }

  async function verifiedAudit(organisationId: string, userId: string) {
    return db().query(
      `SELECT actor_type, actor_id, target_type, target_id, summary, metadata, ip_address
         FROM audit_log_entries
        WHERE organisation_id = $1 AND target_id = $2 AND action = 'member.email_verified'
        ORDER BY seq`,
      [organisationId, userId],
    ) as Promise<Record<string, unknown>[]>;
  }

  it('sends a link at sign-up; the own organisation works at once; the link verifies once, audited', async () => {
    const signedUp = await http()
      .post('/api/auth/sign-up')
      .send({
        email: uniqueEmail('ada').toUpperCase(),
        password: 'correct horse battery staple',
        name: 'Ada Lovelace',
        organisationName: 'Analytical Engines',
      });
    expect(signedUp.status).toBe(201);
    expect(signedUp.body.user.emailVerified).toBe(false);
    const cookie = sessionCookieOf(signedUp);
    const { id: userId, email } = signedUp.body.user as { id: string; email: string };
    const organisationId = signedUp.body.organisation.id as string;
    // Its own organisation works while unverified.
    expect((await createApiKey(server(), cookie)).key).toMatch(/^ilk_/);

    const token = await verificationToken(email);
    const mail = mailsTo(email, VERIFY_SUBJECT)[0];
    expect(mail.parsed.text).toContain('The link works once, for 24 hours.');
    const [stored] = await db().query(
      `SELECT token_hash, email, extract(epoch FROM expires_at - created_at)::int AS life, used_at FROM account_tokens
        WHERE user_id = $1 AND purpose = 'email_verification'`,
      [userId],
    );
    expect(stored).toMatchObject({
      token_hash: createHash('sha256').update(token).digest('hex'),
      email,
      life: 24 * 3600,
      used_at: null,
    });
    expect((await me(cookie)).user.emailVerified).toBe(false);

    // Any browser, signed in or not.
    const verified = await verify(token);
    expect(verified.status).toBe(204);
    expect(verified.text).toBe('');
    expect((await me(cookie)).user).toEqual({
      id: userId,
      email,
      name: 'Ada Lovelace',
      emailVerified: true,
    });
    expect(await verifiedAudit(organisationId, userId)).toEqual([
      {
        actor_type: 'member',
        actor_id: userId,
        target_type: 'user',
        target_id: userId,
        summary: `Ada Lovelace verified their email address ${email}`,
        metadata: { email, via: 'verification_link' },
        ip_address: expect.any(String),
      },
    ]);

    // Single use; asking for another now is a conflict.
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_TOKEN', message: LINK_INVALID });
    const resend = await http().post('/api/me/email-verification').set('cookie', cookie);
    expect(resend.status).toBe(409);
    expect(resend.body).toMatchObject({ code: 'CONFLICT', message: ALREADY_VERIFIED });
    expect(await verifiedAudit(organisationId, userId)).toHaveLength(1);
  });

  it('refuses malformed, unknown, expired and superseded-address tokens alike, and a body without a string token', async () => {
    const ada = await signUpOwner(server());
    const token = await verificationToken(ada.email);
    await db().query(
      `UPDATE account_tokens SET expires_at = now() - interval '1 second'
        WHERE user_id = $1 AND purpose = 'email_verification'`,
      [ada.memberId],
    );
    for (const bad of [token, `${token.slice(0, 42)}A`, 'short', '']) {
      const res = await verify(bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_TOKEN', message: LINK_INVALID });
    }
    expect((await verify(42)).body).toMatchObject({ code: 'VALIDATION_FAILED' });

    // A link names the address it was sent to: once the account has another, it proves nothing.
    const grace = await signUpOwner(server());
    const graceToken = await verificationToken(grace.email);
    const moved = uniqueEmail('moved');
    await db().query(`UPDATE users SET email = $2 WHERE id = $1`, [grace.memberId, moved]);
    expect((await verify(graceToken)).body).toMatchObject({ code: 'INVALID_TOKEN' });
    for (const person of [ada, grace]) {
      const [row] = await db().query(`SELECT email_verified_at FROM users WHERE id = $1`, [
        person.memberId,
      ]);
      expect(row.email_verified_at).toBeNull();
    }
  });

  it('sends a new link on request, up to the limit (429 beyond); an older unused link still works once, and retires the rest', async () => {
    const ada = await signUpOwner(server());
    const first = await verificationToken(ada.email);
    for (const n of [2, 3]) {
      const res = await http().post('/api/me/email-verification').set('cookie', ada.cookie);
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
      await verificationToken(ada.email, n);
    }
    const over = await http().post('/api/me/email-verification').set('cookie', ada.cookie);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(over.headers['retry-after']).toBeDefined();
    const third = await verificationToken(ada.email, 3);

    expect((await verify(first)).status).toBe(204);
    expect((await verify(third)).body).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await me(ada.cookie)).user.emailVerified).toBe(true);
  });

  it('an unverified address cannot accept an invitation into its account (403), a verified one can', async () => {
    const inviter = await signUpOwner(server(), { organisationName: 'Difference Engines' });
    const ada = await signUpOwner(server(), { name: 'Ada Lovelace' });
    const token = await invite(inviter.cookie, ada.email);

    const refused = await http().post(`/api/invitations/${token}/join`).set('cookie', ada.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      statusCode: 403,
      error: 'Forbidden',
      code: 'EMAIL_NOT_VERIFIED',
      message: VERIFY_TO_JOIN,
    });
    expect((await me(ada.cookie)).organisations).toHaveLength(1);

    expect((await verify(await verificationToken(ada.email))).status).toBe(204);
    const joined = await http().post(`/api/invitations/${token}/join`).set('cookie', ada.cookie);
    expect(joined.status).toBe(201);
    expect(joined.body.organisation.id).toBe(inviter.organisationId);
  });

  /** The `#<emailProof>` of the emailed link to invitation `token`, once the email arrived. */
  async function invitationProof(address: string, token: string): Promise<string> {
    const page = `invitations/${token}`;
    const sent = () => sink.to(address).filter((m) => (m.parsed.text ?? '').includes(page));
    await sink.until(() => sent().length === 1);
    return linkToken(sent()[0], DASHBOARD, page);
  }

  it("the invitation email's link proves the address: an unverified account joins with its proof, verified and audited", async () => {
    const inviter = await signUpOwner(server(), { organisationName: 'Difference Engines' });
    const other = await signUpOwner(server(), { organisationName: 'Jacquard Looms' });
    const ada = await signUpOwner(server(), { name: 'Ada Lovelace' });
    const signUpLink = await verificationToken(ada.email);
    const token = await invite(inviter.cookie, ada.email);
    const otherToken = await invite(other.cookie, ada.email);
    const [proof, otherProof] = [
      await invitationProof(ada.email, token),
      await invitationProof(ada.email, otherToken),
    ];
    expect(proof).not.toBe(otherProof);
    const join = (body?: object) => {
      const req = http().post(`/api/invitations/${token}/join`).set('cookie', ada.cookie);
      return body === undefined ? req : req.send(body);
    };

    // Another invitation's proof, an altered one or a made-up one: refused, nothing changes.
    const altered = `${proof.slice(0, 42)}${proof.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [otherProof, altered, 'x']) {
      const refused = await join({ emailProof: wrong });
      expect({ wrong, status: refused.status, body: refused.body }).toMatchObject({
        wrong,
        status: 400,
        body: { code: 'INVALID_TOKEN', message: PROOF_INVALID },
      });
    }
    const notAString = await join({ emailProof: null });
    expect(notAString.status).toBe(400);
    expect(notAString.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message:
        'emailProof must be shorter than or equal to 100 characters; emailProof must be a string',
    });
    // Without a proof the unverified address still cannot join.
    expect((await join()).body.code).toBe('EMAIL_NOT_VERIFIED');
    expect((await join({})).body.code).toBe('EMAIL_NOT_VERIFIED');
    expect(await me(ada.cookie)).toMatchObject({
      user: { emailVerified: false },
      organisations: [expect.objectContaining({ id: ada.organisationId })],
    });
    // Another person's session with this invitation's proof: not theirs to use.
    const grace = await signUpOwner(server(), { name: 'Grace Hopper' });
    const foreign = await http()
      .post(`/api/invitations/${token}/join`)
      .set('cookie', grace.cookie)
      .send({ emailProof: proof });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('This invitation was sent to another email address.');

    const joined = await join({ emailProof: proof });
    expect(joined.status).toBe(201);
    expect(joined.body.organisation.id).toBe(inviter.organisationId);
    expect(joined.body.user.emailVerified).toBe(true);
    // Audited in each of the person's organisations, the new one included; the sign-up's
    // verification link is retired (the address is proven).
    for (const organisationId of [ada.organisationId, inviter.organisationId])
      expect(await verifiedAudit(organisationId, ada.memberId)).toEqual([
        expect.objectContaining({
          actor_type: 'member',
          actor_id: ada.memberId,
          target_type: 'user',
          metadata: { email: ada.email, via: 'invitation_link' },
        }),
      ]);
    expect((await verify(signUpLink)).body).toMatchObject({ code: 'INVALID_TOKEN' });

    // Verified already: the other invitation's proof joins, and nothing more is written.
    const second = await http()
      .post(`/api/invitations/${otherToken}/join`)
      .set('cookie', ada.cookie)
      .send({ emailProof: otherProof });
    expect(second.status).toBe(201);
    expect(await verifiedAudit(other.organisationId, ada.memberId)).toEqual([]);
    expect(await verifiedAudit(ada.organisationId, ada.memberId)).toHaveLength(1);
  });

  it('emails notifications only to verified addresses', async () => {
    const ada = await signUpOwner(server());
    const key = (await createApiKey(server(), ada.cookie)).key;
    const recipientsOf = async (interruptId: string) =>
      (
        await db().query(
          `SELECT recipient_user_id FROM notifications WHERE organisation_id = $1 AND subject_id = $2`,
          [ada.organisationId, interruptId],
        )
      ).map((r: { recipient_user_id: string }) => r.recipient_user_id);

    const before = await openInterrupt(server(), key, { title: 'Before verifying' });
    expect(await recipientsOf(before.id)).toEqual([]);
    expect((await verify(await verificationToken(ada.email))).status).toBe(204);
    const after = await openInterrupt(server(), key, { title: 'After verifying' });
    expect(await recipientsOf(after.id)).toEqual([ada.memberId]);
  });

  it('a squatted address does not block its owner: a password reset proves it, ends the squatter’s sessions, and the owner joins', async () => {
    const owner = uniqueEmail('owner-of-address');
    // Someone else signs up with the owner's address and never verifies it.
    const squatter = await signUpOwner(server(), { email: owner, name: 'Mallory' });
    const inviter = await signUpOwner(server(), { organisationName: 'Real Employer' });
    const invitation = await invite(inviter.cookie, owner);

    // The owner cannot make a new account for the address…
    const accept = await http()
      .post(`/api/invitations/${invitation}/accept`)
      .send({ name: 'Olivia Owner', password: 'the owner’s own passphrase' });
    expect(accept.status).toBe(409);
    // …but the reset link goes to their mailbox: it proves the address and takes the account over.
    expect((await http().post('/api/auth/password-reset').send({ email: owner })).status).toBe(202);
    const reset = await tokenIn(owner, RESET_SUBJECT, 1, 'reset-password');
    expect(
      (
        await http()
          .post('/api/auth/password-reset/confirm')
          .send({ token: reset, password: 'the owner’s own passphrase' })
      ).status,
    ).toBe(204);
    expect((await http().get('/api/me').set('cookie', squatter.cookie)).status).toBe(401);
    expect(await verifiedAudit(squatter.organisationId, squatter.memberId)).toEqual([
      expect.objectContaining({ metadata: { email: owner, via: 'password_reset' } }),
    ]);

    const signedIn = await http()
      .post('/api/auth/sign-in')
      .send({ email: owner, password: 'the owner’s own passphrase' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.emailVerified).toBe(true);
    const joined = await http()
      .post(`/api/invitations/${invitation}/join`)
      .set('cookie', sessionCookieOf(signedIn));
    expect(joined.status).toBe(201);
    // The links asked for before the reset are retired: the address is verified already.
    const squatterLink = await verificationToken(owner);
    const retired = await verify(squatterLink);
    expect(retired.status).toBe(400);
    expect(retired.body).toMatchObject({ code: 'INVALID_TOKEN', message: LINK_INVALID });
    expect(await verifiedAudit(squatter.organisationId, squatter.memberId)).toHaveLength(1);
  });

  it('a new account made from an invitation is sent a link too: the token is not proof of the address', async () => {
    const inviter = await signUpOwner(server());
    const email = uniqueEmail('invited');
    const token = await invite(inviter.cookie, email);
    const accepted = await http()
      .post(`/api/invitations/${token}/accept`)
      .send({ name: 'Grace Hopper', password: 'correct horse battery staple' });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.emailVerified).toBe(false);
    expect((await verify(await verificationToken(email))).status).toBe(204);
    expect((await me(sessionCookieOf(accepted))).user.emailVerified).toBe(true);
  });
});
