import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { sessionCookieOf, signUpOwner, uniqueEmail } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'apps', 'api', 'cli.js');

describe('members sign up, sign in and out', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('sign-up creates a Free organisation and its Owner, signed in with an HttpOnly SameSite=Lax cookie', async () => {
    const email = uniqueEmail('ada');
    const res = await http().post('/api/auth/sign-up').send({
      email,
      password: 'correct horse battery staple',
      name: 'Ada Lovelace',
      organisationName: 'Engines',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      user: { email, name: 'Ada Lovelace' },
      organisations: [{ name: 'Engines', plan: 'free', roleName: 'Owner' }],
      organisation: { name: 'Engines', plan: 'free', roleName: 'Owner' },
    });
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');

    const session = await http().get('/api/auth/session').set('cookie', sessionCookieOf(res));
    expect(session.status).toBe(200);
    expect(session.body.permissions).toEqual(
      expect.arrayContaining(['apiKey.create', 'billing.manage', 'role.manage']),
    );
    expect(session.body.member).toMatchObject({
      id: res.body.user.id,
      email,
      name: 'Ada Lovelace',
      roleName: 'Owner',
    });

    const ds = t.app.get(DataSource);
    const [user] = await ds.query(`SELECT password_hash FROM users WHERE email = $1`, [email]);
    // The test apps' cost, PASSWORD_SCRYPT_LOG_N=12 (production: 2^17, password.util.spec.ts).
    expect(user.password_hash).toMatch(/^scrypt\$4096\$8\$1\$/);
    const token = sessionCookieOf(res).slice('session='.length);
    const sessions = await ds.query(`SELECT token_hash FROM sign_in_sessions WHERE user_id = $1`, [
      res.body.user.id,
    ]);
    expect(sessions).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
    const [entry] = await ds.query(
      `SELECT action, target_type, target_name FROM audit_log_entries WHERE organisation_id = $1`,
      [res.body.organisation.id],
    );
    expect(entry).toEqual({
      action: 'organisation.created',
      target_type: 'organisation',
      target_name: 'Engines',
    });
  });

  it('refuses a second account with the same email (any case) with 409', async () => {
    const owner = await signUpOwner(t.app.getHttpServer());
    const res = await http().post('/api/auth/sign-up').send({
      email: owner.email.toUpperCase(),
      password: 'another password',
      name: 'Eve',
      organisationName: 'X',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
  });

  it.each([
    [{ email: 'not-an-email', password: 'long enough', name: 'A', organisationName: 'B' }, 'email'],
    [{ email: 'a@b.co', password: 'short', name: 'A', organisationName: 'B' }, 'password'],
    [{ email: 'a@b.co', password: 'long enough', organisationName: 'B' }, 'name'],
    [{ email: 'a@b.co', password: 'long enough', name: 'A' }, 'organisationName'],
  ])('sign-up refuses %j naming %s', async (body, field) => {
    const res = await http().post('/api/auth/sign-up').send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('signs in, and answers unknown emails and wrong passwords alike, each after one scrypt', async () => {
    const owner = await signUpOwner(t.app.getHttpServer());
    const ok = await http()
      .post('/api/auth/sign-in')
      .send({ email: owner.email, password: owner.password });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(owner.memberId);
    expect(ok.body.organisations).toEqual([
      expect.objectContaining({ id: owner.organisationId, roleName: 'Owner' }),
    ]);
    expect((await http().get('/api/organisation').set('cookie', sessionCookieOf(ok))).status).toBe(
      200,
    );

    // The module object itself (an `import * as` namespace would be a copy).
    const scrypt = jest.spyOn(
      jest.requireActual<typeof import('node:crypto')>('node:crypto'),
      'scrypt',
    );
    try {
      const wrong = await http()
        .post('/api/auth/sign-in')
        .send({ email: owner.email, password: 'wrong password' });
      expect(scrypt).toHaveBeenCalledTimes(1);
      const unknown = await http()
        .post('/api/auth/sign-in')
        .send({ email: uniqueEmail('nobody'), password: 'wrong password' });
      expect(scrypt).toHaveBeenCalledTimes(2);
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({
          code: 'INVALID_CREDENTIALS',
          message: 'Invalid email or password.',
        });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      // Both ran scrypt with the same cost parameters.
      expect(scrypt.mock.calls[0][3]).toEqual(scrypt.mock.calls[1][3]);
    } finally {
      scrypt.mockRestore();
    }
  });

  it('sign-out ends the session', async () => {
    const owner = await signUpOwner(t.app.getHttpServer());
    const out = await http().post('/api/auth/sign-out').set('cookie', owner.cookie);
    expect(out.status).toBe(204);
    expect((out.headers['set-cookie'] as unknown as string[])[0]).toMatch(
      /^session=;.*Expires=Thu, 01 Jan 1970/,
    );
    const after = await http().get('/api/organisation').set('cookie', owner.cookie);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 'SIGN_IN_REQUIRED', message: 'Sign-in required.' });
  });

  it('human routes without a session answer 401 Sign-in required.', async () => {
    const res = await http().get('/api/api-keys');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      statusCode: 401,
      code: 'SIGN_IN_REQUIRED',
      message: 'Sign-in required.',
    });
  });

  it('refuses cross-site cookie requests (Origin / Sec-Fetch-Site) and lets same-origin and headerless ones through', async () => {
    const owner = await signUpOwner(t.app.getHttpServer());
    const ds = t.app.get(DataSource);
    const count = async () =>
      Number(
        (
          await ds.query(`SELECT count(*) AS n FROM api_keys WHERE organisation_id = $1`, [
            owner.organisationId,
          ])
        )[0].n,
      );
    const send = (headers: Record<string, string>) =>
      http()
        .post('/api/api-keys')
        .set('cookie', owner.cookie)
        .set(headers)
        .send({ name: 'csrf', expiry: 'never' });

    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const res = await send(headers);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'CSRF_REJECTED' });
    }
    // The refusal names the origin it came from, the one expected and the settings, in the answer and the log.
    const expected =
      'Cross-site request refused: this service accepts browser requests from http://localhost:3000 (PUBLIC_ORIGIN), not from https://evil.example. ' +
      'Open the dashboard at http://localhost:3000, or add https://evil.example to ALLOWED_ORIGINS (or set PUBLIC_ORIGIN to it) and restart the service.';
    expect((await send({ origin: 'https://evil.example' })).body.message).toBe(expected);
    expect(
      t.logs.some(
        (l) =>
          l.msg === expected &&
          l.origin === 'https://evil.example' &&
          l.expectedOrigin === 'http://localhost:3000',
      ),
    ).toBe(true);
    expect((await send({ 'sec-fetch-site': 'cross-site' })).body.message).toContain(
      'not from another site. Open the dashboard at http://localhost:3000, or add that origin to ALLOWED_ORIGINS',
    );
    expect(await count()).toBe(0);
    expect(
      (await send({ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })).status,
    ).toBe(201);
    expect((await send({})).status).toBe(201);
    expect(await count()).toBe(2);
    // Reading is never refused for its origin.
    expect(
      (
        await http()
          .get('/api/api-keys')
          .set('cookie', owner.cookie)
          .set('origin', 'https://evil.example')
      ).status,
    ).toBe(200);
  });
});

describe('a production cookie', () => {
  it('is Secure and named with the __Host- prefix; a plain session cookie is not read', async () => {
    const t = await startTestApp({ env: { NODE_ENV: 'production' } });
    try {
      const res = await request(t.app.getHttpServer())
        .post('/api/auth/sign-up')
        .send({
          email: uniqueEmail('prod'),
          password: 'correct horse',
          name: 'P',
          organisationName: 'P',
        });
      const [cookie] = res.headers['set-cookie'] as unknown as string[];
      // __Host-: Secure, Path=/ and no Domain, or browsers refuse it (RFC 6265bis §4.1.3.2).
      expect(cookie).toMatch(
        /^__Host-session=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax; Secure$/,
      );
      const token = cookie.slice('__Host-session='.length, cookie.indexOf(';'));
      const me = (value: string) =>
        request(t.app.getHttpServer()).get('/api/me').set('cookie', value);
      expect((await me(`__Host-session=${token}`)).status).toBe(200);
      // A cookie without the prefix could have been planted by a sibling subdomain.
      expect((await me(`session=${token}`)).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('SIGNUP=closed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SIGNUP: 'closed' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('turns sign-up off; the CLI creates an organisation and its owner instead', async () => {
    const email = uniqueEmail('admin');
    const refused = await request(t.app.getHttpServer())
      .post('/api/auth/sign-up')
      .send({ email, password: 'correct horse', name: 'A', organisationName: 'O' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SIGNUP_CLOSED');

    const cli = spawnSync(
      process.execPath,
      [
        CLI,
        'create-organisation',
        '--name',
        'Self Hosted',
        '--owner-email',
        email,
        '--owner-name',
        'Admin',
        '--password-stdin',
      ],
      {
        input: 'a strong password\n',
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: t.database.url,
          API_KEY_PEPPER: t.config.apiKeyPepper,
        },
      },
    );
    expect(cli.stderr).toBe('');
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain(`Created organisation Self Hosted`);

    const signIn = await request(t.app.getHttpServer())
      .post('/api/auth/sign-in')
      .send({ email, password: 'a strong password' });
    expect(signIn.status).toBe(200);
    expect(signIn.body.organisations).toEqual([
      expect.objectContaining({ name: 'Self Hosted', plan: 'free', roleName: 'Owner' }),
    ]);

    // Signed in, a person cannot create organisations on a closed server either.
    const create = await request(t.app.getHttpServer())
      .post('/api/organisations')
      .set('cookie', sessionCookieOf(signIn))
      .send({ name: 'Mine' });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({
      code: 'SIGNUP_CLOSED',
      message: 'Creating organisations is closed on this server; ask an administrator.',
    });

    // The CLI gives an existing account a second organisation, password untouched.
    const again = spawnSync(
      process.execPath,
      [
        CLI,
        'create-organisation',
        '--name',
        'Second',
        '--owner-email',
        email.toUpperCase(),
        '--owner-name',
        'Ignored',
      ],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: t.database.url,
          API_KEY_PEPPER: t.config.apiKeyPepper,
        },
      },
    );
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('an existing account, password unchanged');
    expect(again.stdout).not.toContain('password (shown once)');
    const me = await request(t.app.getHttpServer())
      .get('/api/me')
      .set('cookie', sessionCookieOf(signIn));
    expect(me.body.organisations.map((o: { name: string }) => o.name)).toEqual([
      'Self Hosted',
      'Second',
    ]);
    expect(me.body.user.name).toBe('Admin');
  });

  it('the CLI explains its usage', () => {
    const cli = spawnSync(process.execPath, [CLI, 'create-organisation', '--name', 'X'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.database.url },
    });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain('Usage: create-organisation');
  });
});
