import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { authenticator } from 'otplib';
import { totpCode } from '../src/users/totp.util';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  joinWithAccount,
  memberWithPermissions,
  sessionCookieOf,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'apps', 'api', 'cli.js');

const CODE_REQUIRED =
  'Two-factor sign-in is on for this account: enter the 6-digit code from your authenticator app, or one of your recovery codes.';
const WRONG_SIGN_IN_CODE =
  'The code is not correct: enter the 6-digit code your authenticator app shows now, or an unused recovery code.';
const WRONG_SETUP_CODE =
  'The code is not correct: enter the 6-digit code your authenticator app shows now for the key you added.';
const ALREADY_ON = 'Two-factor sign-in is already on: turn it off first to set it up again.';
const NOT_ON = 'Two-factor sign-in is not on.';
const NO_SETUP = 'No two-factor set-up is waiting for a code: start the set-up first.';

describe('two-factor sign-in: TOTP and recovery codes (SPEC §8f, issue 33 §2)', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());
  const db = () => t.app.get(DataSource);

  /** The code an authenticator app with this key shows `offsetSteps` 30-second steps from now. */
  const codeFor = (secret: string, offsetSteps = 0) =>
    totpCode(secret, Date.now() + offsetSteps * 30_000);

  const signIn = (owner: SignedUpOwner, code?: unknown) =>
    http()
      .post('/api/auth/sign-in')
      .send({
        email: owner.email,
        password: owner.password,
        ...(code === undefined ? {} : { code }),
      });

  async function entries(organisationId: string, action: string) {
    return db().query(
      `SELECT actor_id, target_id, summary, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND action = $2 ORDER BY seq`,
      [organisationId, action],
    ) as Promise<Record<string, unknown>[]>;
  }

  /** Sets two-factor up for a new owner; their key and recovery codes. */
  async function enrolled(): Promise<{ owner: SignedUpOwner; secret: string; codes: string[] }> {
    const owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    const setup = await http()
      .post('/api/me/two-factor/setup')
      .set('cookie', owner.cookie)
      .send({ password: owner.password });
    expect(setup.status).toBe(200);
    const confirm = await http()
      .post('/api/me/two-factor/confirm')
      .set('cookie', owner.cookie)
      .send({ code: codeFor(setup.body.secret) });
    expect(confirm.status).toBe(200);
    return { owner, secret: setup.body.secret, codes: confirm.body.recoveryCodes };
  }

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('sets up with the password and a code from the app; shows the key and the recovery codes once; audited', async () => {
    const ada = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    // EMAIL_VERIFICATION is optional here (the test app's default): nothing waits for an
    // unproven address, two-factor set-up included (SPEC §8f).
    expect((await http().get('/api/me').set('cookie', ada.cookie)).body.user.emailVerified).toBe(
      false,
    );
    const status = () => http().get('/api/me/two-factor').set('cookie', ada.cookie);
    expect((await status()).body).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });

    const wrongPassword = await http()
      .post('/api/me/two-factor/setup')
      .set('cookie', ada.cookie)
      .send({ password: 'not my password' });
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.body).toMatchObject({
      code: 'WRONG_PASSWORD',
      message: 'The current password is not correct.',
    });

    const setup = await http()
      .post('/api/me/two-factor/setup')
      .set('cookie', ada.cookie)
      .send({ password: ada.password });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUri).toBe(
      `otpauth://totp/Interlock:${encodeURIComponent(ada.email)}?secret=${setup.body.secret}&period=30&digits=6&algorithm=SHA1&issuer=Interlock`,
    );
    // Kept sealed: neither the base32 key nor its bytes are in the row.
    const [row] = await db().query(
      `SELECT secret_sealed, enabled_at FROM user_two_factor WHERE user_id = $1`,
      [ada.memberId],
    );
    expect(row.enabled_at).toBeNull();
    expect((row.secret_sealed as Buffer).includes(Buffer.from(setup.body.secret))).toBe(false);
    const keyBytes = Buffer.from(authenticator.decode(setup.body.secret), 'hex');
    expect(keyBytes.length).toBe(20);
    expect((row.secret_sealed as Buffer).includes(keyBytes)).toBe(false);
    // Not yet confirmed: sign-in still takes the password alone.
    expect((await signIn(ada)).status).toBe(200);

    const wrongCode = await http()
      .post('/api/me/two-factor/confirm')
      .set('cookie', ada.cookie)
      .send({ code: codeFor(setup.body.secret, 5) });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.body).toMatchObject({
      code: 'INVALID_TWO_FACTOR_CODE',
      message: WRONG_SETUP_CODE,
    });

    const confirm = await http()
      .post('/api/me/two-factor/confirm')
      .set('cookie', ada.cookie)
      .send({ code: codeFor(setup.body.secret) });
    expect(confirm.status).toBe(200);
    const codes = confirm.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hj-km-np-z2-9]{5}-[a-hj-km-np-z2-9]{5}$/);
    // Only their hashes are kept.
    const kept = await db().query(`SELECT code_hash FROM user_recovery_codes WHERE user_id = $1`, [
      ada.memberId,
    ]);
    expect(kept).toHaveLength(10);
    expect(JSON.stringify(kept)).not.toContain(codes[0]);

    const on = (await status()).body;
    expect(on).toEqual({
      enabled: true,
      enabledAt: expect.stringMatching(/Z$/),
      recoveryCodesLeft: 10,
    });
    expect(await entries(ada.organisationId, 'member.two_factor_enabled')).toEqual([
      {
        actor_id: ada.memberId,
        target_id: ada.memberId,
        summary: 'Ada Lovelace turned on two-factor sign-in',
        metadata: { method: 'totp' },
      },
    ]);

    // On already: neither a new set-up nor a second confirmation.
    for (const [path, body] of [
      ['setup', { password: ada.password }],
      ['confirm', { code: codeFor(setup.body.secret, 1) }],
    ] as const) {
      const again = await http()
        .post(`/api/me/two-factor/${path}`)
        .set('cookie', ada.cookie)
        .send(body);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'CONFLICT', message: ALREADY_ON });
    }
  });

  it('signs in only with a code: asks for one, refuses a wrong or replayed code, takes a recovery code once (audited)', async () => {
    const { owner: ada, secret, codes } = await enrolled();

    const asked = await signIn(ada);
    expect(asked.status).toBe(401);
    expect(asked.body).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', message: CODE_REQUIRED });
    expect(asked.headers['set-cookie']).toBeUndefined();

    const wrong = await signIn(ada, codeFor(secret, 3));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({
      code: 'INVALID_TWO_FACTOR_CODE',
      message: WRONG_SIGN_IN_CODE,
    });
    expect(wrong.headers['set-cookie']).toBeUndefined();

    // A wrong password is still just a wrong password, code or not.
    const badPassword = await http()
      .post('/api/auth/sign-in')
      .send({ email: ada.email, password: 'not my password', code: codeFor(secret, 1) });
    expect(badPassword.status).toBe(401);
    expect(badPassword.body.code).toBe('INVALID_CREDENTIALS');

    // The next step's code (the set-up took this step's); spaces are fine.
    const next = codeFor(secret, 1);
    const signedIn = await signIn(ada, `${next.slice(0, 3)} ${next.slice(3)}`);
    expect(signedIn.status).toBe(200);
    const cookie = sessionCookieOf(signedIn);
    expect((await http().get('/api/me').set('cookie', cookie)).status).toBe(200);

    const replayed = await signIn(ada, next);
    expect(replayed.status).toBe(403);
    expect(replayed.body.code).toBe('INVALID_TWO_FACTOR_CODE');

    // A recovery code, as typed from paper: upper case, spaces.
    const recovery = await signIn(ada, ` ${codes[3].toUpperCase().replace('-', ' - ')} `);
    expect(recovery.status).toBe(200);
    expect(await entries(ada.organisationId, 'member.recovery_code_used')).toEqual([
      {
        actor_id: ada.memberId,
        target_id: ada.memberId,
        summary: 'Ada Lovelace used a recovery code (9 left)',
        metadata: { left: 9 },
      },
    ]);
    const usedTwice = await signIn(ada, codes[3]);
    expect(usedTwice.status).toBe(403);
    expect(usedTwice.body.code).toBe('INVALID_TWO_FACTOR_CODE');
    expect(
      (await http().get('/api/me/two-factor').set('cookie', cookie)).body.recoveryCodesLeft,
    ).toBe(9);

    const notAString = await signIn(ada, 123456);
    expect(notAString.status).toBe(400);
    expect(notAString.body.code).toBe('VALIDATION_FAILED');
  });

  it('makes new recovery codes with the password: the earlier ones stop working (audited)', async () => {
    const { owner: ada, codes } = await enrolled();
    const refused = await http()
      .post('/api/me/two-factor/recovery-codes')
      .set('cookie', ada.cookie)
      .send({ password: 'not my password' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('WRONG_PASSWORD');

    const fresh = await http()
      .post('/api/me/two-factor/recovery-codes')
      .set('cookie', ada.cookie)
      .send({ password: ada.password });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    expect((await signIn(ada, codes[0])).status).toBe(403);
    expect((await signIn(ada, fresh.body.recoveryCodes[0])).status).toBe(200);
    expect(await entries(ada.organisationId, 'member.recovery_codes_regenerated')).toEqual([
      expect.objectContaining({
        summary: 'Ada Lovelace made new recovery codes',
        metadata: { count: 10 },
      }),
    ]);
  });

  it('turns off with the password and a code; then sign-in takes the password alone (audited)', async () => {
    const { owner: ada, secret, codes } = await enrolled();
    const disable = (body: Record<string, unknown>) =>
      http().post('/api/me/two-factor/disable').set('cookie', ada.cookie).send(body);

    const noCode = await disable({ password: ada.password });
    expect(noCode.status).toBe(400);
    expect(noCode.body.code).toBe('VALIDATION_FAILED');
    const wrongCode = await disable({ password: ada.password, code: codeFor(secret, 4) });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.body).toMatchObject({
      code: 'INVALID_TWO_FACTOR_CODE',
      message: WRONG_SIGN_IN_CODE,
    });
    const wrongPassword = await disable({ password: 'not my password', code: codes[0] });
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.body.code).toBe('WRONG_PASSWORD');
    // Neither refusal used the recovery code.
    expect((await http().get('/api/me/two-factor').set('cookie', ada.cookie)).body).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    expect((await disable({ password: ada.password, code: codes[0] })).status).toBe(204);
    expect((await http().get('/api/me/two-factor').set('cookie', ada.cookie)).body).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    expect(await entries(ada.organisationId, 'member.two_factor_disabled')).toEqual([
      expect.objectContaining({
        summary: 'Ada Lovelace turned off two-factor sign-in with a recovery code',
        metadata: { method: 'totp', via: 'recovery_code' },
      }),
    ]);
    expect((await signIn(ada)).status).toBe(200);
    const rows = await db().query(
      `SELECT (SELECT count(*)::int FROM user_two_factor WHERE user_id = $1) AS secrets,
              (SELECT count(*)::int FROM user_recovery_codes WHERE user_id = $1) AS codes`,
      [ada.memberId],
    );
    expect(rows).toEqual([{ secrets: 0, codes: 0 }]);

    const again = await disable({ password: ada.password, code: codes[1] });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', message: NOT_ON });
    const confirmWithoutSetup = await http()
      .post('/api/me/two-factor/confirm')
      .set('cookie', ada.cookie)
      .send({ code: '123456' });
    expect(confirmWithoutSetup.status).toBe(409);
    expect(confirmWithoutSetup.body).toMatchObject({ code: 'CONFLICT', message: NO_SETUP });
  });

  it('an operator turns it off for a person who lost both phone and codes (CLI, audited as system); their sessions end', async () => {
    const { owner: ada } = await enrolled();
    const cli = (email: string) =>
      spawnSync(process.execPath, [CLI, 'disable-two-factor', '--email', email], {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: t.database.url,
          API_KEY_PEPPER: t.config.apiKeyPepper,
        },
      });
    const off = cli(` ${ada.email.toUpperCase()} `);
    expect(off.stderr).toBe('');
    expect(off.status).toBe(0);
    expect(off.stdout).toBe(
      `Two-factor sign-in is off for ${ada.email}; their sign-in sessions ended. They sign in with their password alone and can set it up again in Settings → Security.\n`,
    );
    expect((await http().get('/api/me').set('cookie', ada.cookie)).status).toBe(401);
    const signedIn = await signIn(ada);
    expect(signedIn.status).toBe(200);
    expect(await entries(ada.organisationId, 'member.two_factor_disabled')).toEqual([
      {
        actor_id: null,
        target_id: ada.memberId,
        summary: 'Two-factor sign-in turned off for Ada Lovelace by an operator',
        metadata: { method: 'totp', via: 'operator' },
      },
    ]);

    const again = cli(ada.email);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(`Two-factor sign-in was not on for ${ada.email}; nothing changed.\n`);
    const nobody = cli('nobody-at-all@example.com');
    expect(nobody.status).toBe(2);
    expect(nobody.stderr).toBe('No account has the address nobody-at-all@example.com.\n');
  });

  it('is the signed-in person’s own: without a session every route answers 401', async () => {
    for (const [method, path] of [
      ['get', '/api/me/two-factor'],
      ['post', '/api/me/two-factor/setup'],
      ['post', '/api/me/two-factor/confirm'],
      ['post', '/api/me/two-factor/disable'],
      ['post', '/api/me/two-factor/recovery-codes'],
    ] as const) {
      const res = await http()[method](path).send({ password: 'x', code: '123456' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('SIGN_IN_REQUIRED');
    }
  });

  describe('require two-factor sign-in for members (SPEC §8f, issue 33 §2)', () => {
    const ENROL =
      'This organisation requires two-factor sign-in: turn it on for your account in Settings → Security to act for it.';
    const requirement = (cookie: string, organisationId: string, requireTwoFactor?: unknown) => {
      const req =
        requireTwoFactor === undefined
          ? http().get('/api/organisation/two-factor-requirement')
          : http().put('/api/organisation/two-factor-requirement').send({ requireTwoFactor });
      return req.set('cookie', cookie).set('x-organisation-id', organisationId);
    };
    const actFor = (cookie: string, organisationId: string) =>
      http()
        .get('/api/auth/session')
        .set('cookie', cookie)
        .set('x-organisation-id', organisationId);

    it('an Owner with two-factor on turns it on (audited); members without it can only enrol until they do; keys are unaffected', async () => {
      const { owner } = await enrolled();
      const server = t.app.getHttpServer();
      const org = owner.organisationId;
      const roles = await builtInRoleIds(server, owner.cookie);
      const grace = await joinOrganisation(server, owner.cookie, roles.developer, 'Grace');
      const manager = await memberWithPermissions(server, owner.cookie, ['member.manage'], 'Max');
      const key = await createApiKey(server, owner.cookie);

      expect((await requirement(grace.cookie, org)).body).toEqual({ requireTwoFactor: false });
      // member.manage for the route; then only an Owner.
      const developer = await requirement(grace.cookie, org, true);
      expect(developer.status).toBe(403);
      expect(developer.body.code).toBe('MISSING_PERMISSION');
      const notOwner = await requirement(manager.cookie, org, true);
      expect(notOwner.status).toBe(403);
      expect(notOwner.body).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Only an Owner can change whether this organisation requires two-factor sign-in.',
      });
      expect((await requirement(owner.cookie, org, 'yes')).status).toBe(400);
      // An Owner without two-factor sign-in would refuse themselves.
      const bare = await signUpOwner(server);
      const ownFirst = await requirement(bare.cookie, bare.organisationId, true);
      expect(ownFirst.status).toBe(409);
      expect(ownFirst.body).toMatchObject({
        code: 'CONFLICT',
        message:
          'Turn on two-factor sign-in for your own account first (Settings → Security): requiring it would refuse you too.',
      });

      const on = await requirement(owner.cookie, org, true);
      expect(on.status).toBe(200);
      expect(on.body).toEqual({ requireTwoFactor: true });
      expect((await requirement(owner.cookie, org, true)).status).toBe(200);
      expect(
        (await entries(org, 'settings.two_factor_requirement_changed')).map((e) => [
          e.actor_id,
          e.summary,
          e.metadata,
        ]),
      ).toEqual([
        [
          owner.memberId,
          'Two-factor sign-in required for members by Ada Lovelace',
          { requireTwoFactor: true },
        ],
      ]);

      // Grace's session made before stops acting for it at its next request; her account works.
      const refused = await actFor(grace.cookie, org);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        statusCode: 403,
        error: 'Forbidden',
        code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
        message: ENROL,
      });
      const inbox = await http()
        .get('/api/interrupts')
        .set('cookie', grace.cookie)
        .set('x-organisation-id', org);
      expect(inbox.status).toBe(403);
      expect(inbox.body.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
      expect((await http().get('/api/me').set('cookie', grace.cookie)).status).toBe(200);
      // A new password sign-in works, and is sent to enrolment the same way.
      const signedIn = await http()
        .post('/api/auth/sign-in')
        .send({ email: grace.email, password: 'correct horse battery staple' });
      expect(signedIn.status).toBe(200);
      const fresh = sessionCookieOf(signedIn);
      expect((await actFor(fresh, org)).body.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
      // The Owner acts; keys are not sign-ins.
      expect((await actFor(owner.cookie, org)).status).toBe(200);
      expect((await http().get('/api/interrupts').set('x-api-key', key.key)).status).toBe(200);

      // Enrolled from Settings → Security: both of her sessions act for it again.
      const setup = await http()
        .post('/api/me/two-factor/setup')
        .set('cookie', fresh)
        .send({ password: 'correct horse battery staple' });
      expect(setup.status).toBe(200);
      const confirm = await http()
        .post('/api/me/two-factor/confirm')
        .set('cookie', fresh)
        .send({ code: codeFor(setup.body.secret) });
      expect(confirm.status).toBe(200);
      expect((await actFor(fresh, org)).status).toBe(200);
      expect((await actFor(grace.cookie, org)).status).toBe(200);
      // Max has not: still refused. Turned off, he acts again.
      expect((await actFor(manager.cookie, org)).body.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
      const off = await requirement(owner.cookie, org, false);
      expect(off.body).toEqual({ requireTwoFactor: false });
      expect((await actFor(manager.cookie, org)).status).toBe(200);
      expect(
        (await entries(org, 'settings.two_factor_requirement_changed')).map((e) => e.summary),
      ).toEqual([
        'Two-factor sign-in required for members by Ada Lovelace',
        'Two-factor sign-in no longer required by Ada Lovelace',
      ]);
    });

    it("acts only for the organisation that requires it: a member's other organisations are untouched", async () => {
      const { owner } = await enrolled();
      const server = t.app.getHttpServer();
      const roles = await builtInRoleIds(server, owner.cookie);
      const kim = await signUpOwner(server, { name: 'Kim', organisationName: 'Kim & Co' });
      await joinWithAccount(server, owner.cookie, roles.manager, kim);
      expect((await requirement(owner.cookie, owner.organisationId, true)).status).toBe(200);
      expect((await actFor(kim.cookie, owner.organisationId)).body.code).toBe(
        'TWO_FACTOR_ENROLMENT_REQUIRED',
      );
      expect((await actFor(kim.cookie, kim.organisationId)).status).toBe(200);
    });
  });
});
