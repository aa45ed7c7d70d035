import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  joinWithAccount,
  sessionCookieOf,
  signUpOwner,
  type SignedUpOwner,
} from './support/factories';
import {
  finishAtService,
  signInWithSso,
  startOidcProvider,
  walkThroughProvider,
  type RunningOidcProvider,
} from './support/oidc-provider';
import { startDnsServer, type RunningDnsServer } from './support/dns-server';
import { SmtpSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';
import { AfterAnswer } from '../src/users/after-answer';
import { totpCode } from '../src/users/totp.util';

const DASHBOARD = 'http://dashboard.test';
const REDIRECT = `${DASHBOARD}/sso/callback`;
const CLIENT = { client_id: 'interlock', client_secret: 'interlock-secret-0123456789' };

const FLOW =
  'This single sign-on was not started in this browser, or took longer than 10 minutes: start again.';
const CHECKS = "Your identity provider's answer did not pass the checks (";
const SSO_ONLY = (what: string) =>
  `You signed in with single sign-on, which acts only for the organisation that signed you in: sign in with your password to ${what}.`;
const UNVERIFIED =
  'Your identity provider did not confirm your email address (email_verified): ask your administrator.';

describe('single sign-on with OpenID Connect (SPEC §8f, issue 33 §3), against a real oidc-provider', () => {
  let t: TestApp;
  let op: RunningOidcProvider;
  let dns: RunningDnsServer;
  const http = () => request(t.app.getHttpServer());
  const db = () => t.app.get(DataSource);
  const domain = () => `acme-${randomBytes(4).toString('hex')}.test`;

  beforeAll(async () => {
    op = await startOidcProvider([
      { ...CLIENT, redirect_uris: [REDIRECT] },
      {
        client_id: 'someone-else',
        client_secret: 'other-secret-0123456789',
        redirect_uris: [REDIRECT],
      },
    ]);
    dns = await startDnsServer();
    t = await startTestApp({ env: { DASHBOARD_URL: DASHBOARD, SSO_DNS_SERVERS: dns.address } });
  });
  afterAll(async () => {
    await t?.close();
    await op?.stop();
    await dns?.stop();
  });

  /** Publishes the organisation's TXT record for each domain and verifies it (SPEC §8f). */
  async function prove(
    owner: SignedUpOwner,
    domains: string[],
    server = t.app.getHttpServer(),
  ): Promise<void> {
    const sso = await request(server)
      .get('/api/organisation/sso')
      .set('cookie', owner.cookie)
      .set('x-organisation-id', owner.organisationId);
    for (const d of sso.body.connection.domains as {
      domain: string;
      recordName: string;
      recordValue: string;
    }[]) {
      if (!domains.includes(d.domain)) continue;
      dns.publish(d.recordName, [d.recordValue]);
      const verified = await request(server)
        .post('/api/organisation/sso/domains/verify')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId)
        .send({ domain: d.domain });
      expect(verified.status).toBe(200);
    }
  }

  async function managerRoleOf(owner: SignedUpOwner): Promise<string> {
    const roles = await http()
      .get('/api/roles')
      .set('cookie', owner.cookie)
      .set('x-organisation-id', owner.organisationId);
    const manager = (roles.body.roles as { id: string; name: string }[]).find(
      (r) => r.name === 'Manager',
    );
    if (manager === undefined) throw new Error('no Manager role');
    return manager.id;
  }

  /** Sets the owner's organisation's single sign-on to the test provider, for `domains`. */
  const configure = (
    owner: SignedUpOwner,
    roleId: string,
    domains: string[],
    server = t.app.getHttpServer(),
  ) =>
    request(server)
      .put('/api/organisation/sso')
      .set('cookie', owner.cookie)
      .set('x-organisation-id', owner.organisationId)
      .send({
        issuer: op.issuer,
        clientId: CLIENT.client_id,
        clientSecret: CLIENT.client_secret,
        allowedDomains: domains,
        defaultRoleId: roleId,
      });

  /** A new organisation whose single sign-on is the test provider, for `domains` (proven by DNS). */
  async function connected(
    domains: string[],
    organisationName?: string,
  ): Promise<{ owner: SignedUpOwner; roleId: string }> {
    const owner = await signUpOwner(t.app.getHttpServer(), { organisationName });
    const roleId = await managerRoleOf(owner);
    expect((await configure(owner, roleId, domains)).status).toBe(200);
    await prove(owner, domains);
    return { owner, roleId };
  }

  /**
   * On an instance of the service of a test's own: a new organisation whose single sign-on is the
   * test provider, for a new domain (proven by DNS), new members Managers; the domain.
   */
  async function connectedOn(server: ReturnType<TestApp['app']['getHttpServer']>): Promise<string> {
    const owner = await signUpOwner(server);
    const roles = await builtInRoleIds(server, owner.cookie);
    const d = domain();
    expect((await configure(owner, roles.manager, [d], server)).status).toBe(200);
    await prove(owner, [d], server);
    return d;
  }

  /** Starts at the service, signs in at the provider as `login`; the callback's query and the flow cookie. */
  const throughProvider = (email: string, login = email) =>
    walkThroughProvider(t.app.getHttpServer(), REDIRECT, email, login);
  const finish = (flow: string | undefined, callbackQuery: string) =>
    finishAtService(t.app.getHttpServer(), flow, callbackQuery);
  /** A whole single sign-on that succeeds: its answer and session cookie. */
  const ssoSignIn = (email: string, passwordSession?: string) =>
    signInWithSso(t.app.getHttpServer(), REDIRECT, email, passwordSession);

  const entries = (organisationId: string, action: string) =>
    db().query(
      `SELECT actor_type, actor_id, target_id, summary, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND action = $2 ORDER BY seq`,
      [organisationId, action],
    ) as Promise<Record<string, unknown>[]>;

  it('connects a provider (discovery read first, the secret never shown), one organisation per domain; audited', async () => {
    const owner = await signUpOwner(t.app.getHttpServer());
    const as = (r: request.Test) =>
      r.set('cookie', owner.cookie).set('x-organisation-id', owner.organisationId);
    expect((await as(http().get('/api/organisation/sso'))).body).toEqual({
      connection: null,
      redirectUri: REDIRECT,
    });
    const roleId = await managerRoleOf(owner);
    const d = domain();
    const body = {
      issuer: op.issuer,
      clientId: CLIENT.client_id,
      allowedDomains: [d],
      defaultRoleId: roleId,
    };

    const noSecret = await as(http().put('/api/organisation/sso')).send(body);
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.message).toBe('clientSecret is required to connect a provider.');

    const nowhere = await as(http().put('/api/organisation/sso')).send({
      ...body,
      clientSecret: 'x',
      issuer: 'http://127.0.0.1:9/nowhere',
    });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.code).toBe('SSO_DISCOVERY_FAILED');
    expect(nowhere.body.message).toMatch(
      /^Could not read the OpenID provider's configuration at http:\/\/127\.0\.0\.1:9\/nowhere\/\.well-known\/openid-configuration: /,
    );

    const owners = await http()
      .get('/api/roles')
      .set('cookie', owner.cookie)
      .set('x-organisation-id', owner.organisationId);
    const ownerRole = (owners.body.roles as { id: string; name: string }[]).find(
      (r) => r.name === 'Owner',
    )?.id as string;
    const asOwnerRole = await as(http().put('/api/organisation/sso')).send({
      ...body,
      clientSecret: CLIENT.client_secret,
      defaultRoleId: ownerRole,
    });
    expect(asOwnerRole.status).toBe(400);
    expect(asOwnerRole.body.message).toBe(
      'defaultRoleId: single sign-on cannot make new members Owners.',
    );

    const put = await as(http().put('/api/organisation/sso')).send({
      ...body,
      clientSecret: CLIENT.client_secret,
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      connection: {
        issuer: op.issuer,
        clientId: CLIENT.client_id,
        allowedDomains: [d],
        domains: [
          {
            domain: d,
            verifiedAt: null,
            lastCheckedAt: null,
            failedChecks: 0,
            recordName: `_interlock-challenge.${d}`,
            recordValue: expect.stringMatching(/^interlock-domain-verification=[0-9a-f]{32}$/),
          },
        ],
        defaultRoleId: roleId,
        requireSso: false,
        verifiedAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      redirectUri: REDIRECT,
    });
    expect(JSON.stringify(put.body)).not.toContain(CLIENT.client_secret);
    const [stored] = await db().query(
      `SELECT client_secret_sealed FROM sso_connections WHERE organisation_id = $1`,
      [owner.organisationId],
    );
    expect((stored.client_secret_sealed as Buffer).toString('latin1')).not.toContain(
      CLIENT.client_secret,
    );

    // Changed without the secret: the stored one is kept (discovery still passes with it).
    const changed = await as(http().put('/api/organisation/sso')).send(body);
    expect(changed.status).toBe(200);
    const audit = await entries(owner.organisationId, 'settings.sso_configured');
    expect(
      audit.map((e) => [e.summary, (e.metadata as { secretChanged: boolean }).secretChanged]),
    ).toEqual([
      [`Single sign-on connected to ${op.issuer} by Ada Lovelace`, true],
      [`Single sign-on (${op.issuer}) changed by Ada Lovelace`, false],
    ]);
    expect(JSON.stringify(audit)).not.toContain(CLIENT.client_secret);

    // Once proven by DNS, a domain is this organisation's only.
    await prove(owner, [d]);
    const other = await signUpOwner(t.app.getHttpServer());
    const taken = await http()
      .put('/api/organisation/sso')
      .set('cookie', other.cookie)
      .set('x-organisation-id', other.organisationId)
      .send({
        ...body,
        clientSecret: CLIENT.client_secret,
        defaultRoleId: await managerRoleOf(other),
      });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(
      `${d} is signed in by another organisation's single sign-on already.`,
    );

    const removed = await as(http().delete('/api/organisation/sso'));
    expect(removed.status).toBe(204);
    expect((await as(http().delete('/api/organisation/sso'))).status).toBe(404);
    expect(
      (await entries(owner.organisationId, 'settings.sso_removed')).map((e) => e.summary),
    ).toEqual([`Single sign-on (${op.issuer}) disconnected by Ada Lovelace`]);
    const start = await http()
      .post('/api/auth/sso')
      .send({ email: `ada@${d}` });
    expect(start.status).toBe(404);
    expect(start.body).toMatchObject({
      code: 'SSO_NOT_CONFIGURED',
      message: `No organisation signs in addresses at ${d} with single sign-on: sign in with your password.`,
    });
  });

  it('a first sign-in provisions the member with the default role; a second signs in; the session acts for that organisation', async () => {
    const d = domain();
    const { owner, roleId } = await connected([d]);
    const email = `grace@${d}`;

    const first = await throughProvider(email);
    const signedIn = await finish(first.flow, first.query);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email, name: 'SSO grace', emailVerified: true });
    expect(signedIn.body.organisation).toMatchObject({ id: owner.organisationId, roleId });
    const cookie = sessionCookieOf(signedIn);
    const session = await http()
      .get('/api/auth/session')
      .set('cookie', cookie)
      .set('x-organisation-id', owner.organisationId);
    expect(session.status).toBe(200);
    expect(session.body.member).toMatchObject({ email, roleName: 'Manager' });
    expect(
      (await entries(owner.organisationId, 'member.provisioned')).map((e) => [
        e.summary,
        e.metadata,
      ]),
    ).toEqual([
      [
        'SSO grace joined as Manager through single sign-on',
        { email, roleId, role: 'Manager', issuer: op.issuer },
      ],
    ]);

    // The flow cookie is used up: the same answer again is refused.
    const replay = await finish(first.flow, first.query);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('SSO_SIGN_IN_FAILED');

    const again = await ssoSignIn(email);
    expect(again.body.user.id).toBe(signedIn.body.user.id);
    expect(await entries(owner.organisationId, 'member.provisioned')).toHaveLength(1);

    // A password sign-in does not work for an account single sign-on made.
    const password = await http()
      .post('/api/auth/sign-in')
      .send({ email, password: 'none:single-sign-on' });
    expect(password.status).toBe(401);
  });

  /**
   * Runs `requests` while the test holds a SHARE lock on users (no account can be made), each
   * started once the ones before it wait on a lock, then lets them all go: they overlap for sure,
   * in that order. A request counts as waiting when the test's lock holds it up — directly, or
   * through a request it holds up — so nothing else waiting in the database (a job's statement)
   * is taken for one of them. The pool starts with no idle connection, so every request opens a
   * connection after the helper first looked: the case that once hid a waiting request (below).
   */
  /** A supertest answer as a failure should show it (its status and body), anything else as JSON. */
  const answerOf = (answer: unknown): string => {
    const { status, text } = (answer ?? {}) as { status?: number; text?: string };
    return status === undefined ? JSON.stringify(answer) : `${status} ${text ?? ''}`.slice(0, 500);
  };

  async function overlapping<T>(requests: (() => PromiseLike<T>)[]): Promise<T[]> {
    const pool = (db().driver as unknown as { master: Pool }).master;
    // Closes the pool's idle connections: the requests open new ones once the lock is held.
    const idle = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
    for (const client of idle) client.release(true);
    const holder = db().createQueryRunner();
    await holder.connect();
    // A request that answers while the lock is held did not overlap: say what it answered, at
    // once, rather than wait for it to be seen waiting (run W, session 20: one never was, and the
    // 120 s deadline was all the failure said).
    const early: string[] = [];
    // What the database and the service's pool show, for a failure to name its cause.
    const backends = async () => {
      await holder.query('SELECT pg_stat_clear_snapshot()');
      const rows: Record<string, unknown>[] = await holder.query(
        `SELECT pid, application_name, state, wait_event_type, wait_event,
                pg_blocking_pids(pid) AS blocked_by, left(query, 120) AS query
           FROM pg_stat_activity WHERE datname = current_database() ORDER BY pid`,
      );
      const [{ me }] = await holder.query('SELECT pg_backend_pid() AS me');
      const pooled = `total ${pool.totalCount}, idle ${pool.idleCount}, waiting ${pool.waitingCount}`;
      return `${me}; the service's pool: ${pooled}; backends:\n${rows.map((row) => JSON.stringify(row)).join('\n')}`;
    };
    const waiting = async (count: number) => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (early.length > 0)
          throw new Error(`answered before the lock was let go: ${early.join('; ')}`);
        // pg_stat_activity lists the backends of the transaction's first look at it until the
        // transaction ends: a request's connection opened later was never seen waiting (runs W and
        // AG: "1 of 2" for 120 s). A fresh list each time.
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const [{ n }] = await holder.query(
          `WITH RECURSIVE held(pid) AS (
             SELECT pg_backend_pid()
             UNION
             SELECT a.pid FROM pg_stat_activity a JOIN held h ON h.pid = ANY (pg_blocking_pids(a.pid))
              WHERE a.datname = current_database() AND a.wait_event_type = 'Lock'
           )
           SELECT count(*)::int - 1 AS n FROM held`,
        );
        if (n >= count) return;
        if (Date.now() > deadline)
          throw new Error(
            `${n} of ${count} statements wait on a lock; the test's backend ${await backends()}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      await holder.startTransaction();
      await holder.query('LOCK TABLE users IN SHARE MODE');
      const answers: Promise<T>[] = [];
      for (const request of requests) {
        const index = answers.length;
        // A supertest request starts when awaited.
        answers.push(
          Promise.resolve(request()).then((answer) => {
            if (holder.isTransactionActive) early.push(`request ${index + 1}: ${answerOf(answer)}`);
            return answer;
          }),
        );
        await waiting(answers.length);
      }
      await holder.commitTransaction();
      return await Promise.all(answers);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  }

  it('two first sign-ins of one new person at once make one account, both signed in, provisioned once; the provider-verified address is audited', async () => {
    const d = domain();
    const { owner } = await connected([d]);
    const email = `lin@${d}`;
    const a = await throughProvider(email);
    const b = await throughProvider(email);
    const [first, second] = await overlapping([
      () => finish(a.flow, a.query),
      () => finish(b.flow, b.query),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.user.id).toBe(first.body.user.id);
    const userId = first.body.user.id as string;
    expect(await entries(owner.organisationId, 'member.provisioned')).toHaveLength(1);
    expect(await entries(owner.organisationId, 'member.email_verified')).toEqual([
      {
        actor_type: 'member',
        actor_id: userId,
        target_id: userId,
        summary: `SSO lin verified their email address ${email}`,
        metadata: { email, via: 'single_sign_on' },
      },
    ]);
  });

  it("a first sign-in and a settings change removing its domain at once: no deadlock, both answer, the change forgets the sign-in's link", async () => {
    const d = domain();
    const kept = domain();
    const { owner, roleId } = await connected([d, kept]);
    const email = `mae@${d}`;
    const a = await throughProvider(email);
    // The sign-in holds its domain and waits to make the account; the change waits for it.
    const [signedIn, changed] = await overlapping([
      () => finish(a.flow, a.query),
      () => configure(owner, roleId, [kept]),
    ]);
    expect([signedIn.status, changed.status]).toEqual([200, 200]);
    expect(changed.body.connection.allowedDomains).toEqual([kept]);
    const [link] = await db().query(
      `SELECT count(*)::int AS n FROM sso_identities WHERE user_id = $1`,
      [signedIn.body.user.id],
    );
    expect(link.n).toBe(0);
  });

  it("links an existing account by its address (its password session in the same browser proves it, and stays); a single sign-on session acts for the provider's organisation only", async () => {
    const d = domain();
    const { owner } = await connected([d]);
    const existing = await signUpOwner(t.app.getHttpServer(), {
      email: `linus@${d}`,
      name: 'Linus',
    });

    // Linking in the browser of the password session keeps that session: no new cookie.
    const walk = await throughProvider(existing.email);
    const linked = await finishAtService(
      t.app.getHttpServer(),
      walk.flow,
      walk.query,
      existing.cookie,
    );
    expect(linked.status).toBe(200);
    expect(linked.body.user.id).toBe(existing.memberId);
    expect(String(linked.headers['set-cookie'] ?? '')).not.toMatch(/(^|,\s*)session=/);
    expect(
      (await entries(owner.organisationId, 'member.sso_linked')).map((e) => e.summary),
    ).toEqual(['Linus signed in with single sign-on for the first time']);
    const signedIn = await ssoSignIn(existing.email);
    expect(signedIn.body.user.id).toBe(existing.memberId);
    expect(signedIn.body.organisations.map((o) => o.id)).toEqual([owner.organisationId]);
    const { cookie } = signedIn;
    const here = await http()
      .get('/api/auth/session')
      .set('cookie', cookie)
      .set('x-organisation-id', owner.organisationId);
    expect(here.status).toBe(200);
    // Their own organisation: the provider vouched for nothing there. The same answer for an
    // organisation they are no member of: it says nothing of their other memberships.
    for (const organisationId of [existing.organisationId, randomUUID()]) {
      const other = await http()
        .get('/api/auth/session')
        .set('cookie', cookie)
        .set('x-organisation-id', organisationId);
      expect(other.status).toBe(403);
      expect(other.body).toMatchObject({
        statusCode: 403,
        error: 'Forbidden',
        code: 'FORBIDDEN',
        message: SSO_ONLY('act for another organisation'),
      });
    }
    // Their account lists the provider's organisation only, and nothing else is joined or made.
    const me = await http().get('/api/me').set('cookie', cookie);
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(existing.memberId);
    expect(me.body.organisations.map((o: { id: string }) => o.id)).toEqual([owner.organisationId]);
    const create = await http()
      .post('/api/organisations')
      .set('cookie', cookie)
      .send({ name: 'Elsewhere' });
    expect(create.status).toBe(403);
    expect(create.body.message).toBe(SSO_ONLY('create an organisation'));
    const third = await signUpOwner(t.app.getHttpServer());
    const invitation = await http()
      .post('/api/invitations')
      .set('cookie', third.cookie)
      .set('x-organisation-id', third.organisationId)
      .send({ email: existing.email, roleId: await managerRoleOf(third) });
    expect(invitation.status).toBe(201);
    const join = await http()
      .post(`/api/invitations/${invitation.body.token as string}/join`)
      .set('cookie', cookie)
      .send({});
    expect(join.status).toBe(403);
    expect(join.body.message).toBe(SSO_ONLY('accept an invitation'));
    // Their password session still acts for it, and lists both.
    const byPassword = await http()
      .get('/api/auth/session')
      .set('cookie', existing.cookie)
      .set('x-organisation-id', existing.organisationId);
    expect(byPassword.status).toBe(200);
    const mine = await http().get('/api/me').set('cookie', existing.cookie);
    expect(mine.body.organisations.map((o: { id: string }) => o.id).sort()).toEqual(
      [owner.organisationId, existing.organisationId].sort(),
    );
  });

  it("Settings → Security lists the person's organisation whose proven domain signs in their address, linked or not; linking there keeps the password session", async () => {
    const d = domain();
    const other = domain();
    const { owner, roleId } = await connected([d, other], 'Acme SSO');
    const pat = await signUpOwner(t.app.getHttpServer(), {
      email: `pat@${d}`,
      name: 'Pat',
      organisationName: 'Pat Inc',
    });
    const mine = (cookie: string) => http().get('/api/me/single-sign-on').set('cookie', cookie);
    // Not a member there (yet), or an address at no proven domain: nothing to link.
    expect((await mine(pat.cookie)).body).toEqual({ organisations: [] });
    expect((await mine(owner.cookie)).body).toEqual({ organisations: [] });
    await joinWithAccount(t.app.getHttpServer(), owner.cookie, roleId, pat);
    const unlinked = await mine(pat.cookie);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({
      organisations: [
        {
          organisationId: owner.organisationId,
          organisationName: 'Acme SSO',
          issuer: op.issuer,
          linkedAt: null,
        },
      ],
    });

    const walk = await throughProvider(pat.email);
    const linked = await finishAtService(t.app.getHttpServer(), walk.flow, walk.query, pat.cookie);
    expect(linked.status).toBe(200);
    expect(linked.body.user.id).toBe(pat.memberId);
    expect(String(linked.headers['set-cookie'] ?? '')).not.toMatch(/(^|,\s*)session=/);
    const [link] = await db().query(
      `SELECT created_at FROM sso_identities WHERE organisation_id = $1 AND user_id = $2`,
      [owner.organisationId, pat.memberId],
    );
    const shown = await mine(pat.cookie);
    expect(shown.body.organisations).toEqual([
      { ...unlinked.body.organisations[0], linkedAt: (link.created_at as Date).toISOString() },
    ]);
    // The password session still acts for every organisation of theirs.
    const me = await http().get('/api/me').set('cookie', pat.cookie);
    expect(me.body.organisations.map((o: { id: string }) => o.id).sort()).toEqual(
      [pat.organisationId, owner.organisationId].sort(),
    );
    // Signed in by the provider (no password now): the same account, and the link shown there.
    const sso = await ssoSignIn(pat.email);
    expect(sso.body.user.id).toBe(pat.memberId);
    expect((await mine(sso.cookie)).body).toEqual(shown.body);
    // Its domain leaving the provider's list takes the link with it: nothing to show.
    expect((await configure(owner, roleId, [other])).status).toBe(200);
    expect((await mine(pat.cookie)).body).toEqual({ organisations: [] });
  });

  it('refuses another domain, an address the provider did not verify, a missing or foreign flow, and a provider error', async () => {
    const d = domain();
    const { owner } = await connected([d]);

    const stranger = await throughProvider(`eve@${d}`, `eve@elsewhere-${d}`);
    const refused = await finish(stranger.flow, stranger.query);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      code: 'SSO_SIGN_IN_FAILED',
      message: `eve@elsewhere-${d} is not at a domain this organisation signs in with single sign-on.`,
    });

    const unverified = await throughProvider(`uma@${d}`, `unverified.uma@${d}`);
    const notVerified = await finish(unverified.flow, unverified.query);
    expect(notVerified.status).toBe(401);
    expect(notVerified.body.message).toBe(UNVERIFIED);

    const a = await throughProvider(`amy@${d}`);
    const noCookie = await finish(undefined, a.query);
    expect(noCookie.status).toBe(401);
    expect(noCookie.body.message).toBe(FLOW);

    // Another attempt's cookie (another state, nonce and verifier): the state check refuses it.
    const b = await throughProvider(`amy@${d}`);
    const crossed = await finish(b.flow, a.query);
    expect(crossed.status).toBe(401);
    expect(crossed.body.message.startsWith(CHECKS)).toBe(true);
    expect(crossed.body.message).toMatch(/state/);

    const denied = await finish(b.flow, '?error=access_denied&state=x');
    expect(denied.status).toBe(401);
    expect(denied.body.message).toBe(
      'Your identity provider did not sign you in (access_denied): start again, or ask your administrator.',
    );
    expect(await entries(owner.organisationId, 'member.provisioned')).toEqual([]);
  });

  it.each([
    ['another audience', { aud: 'someone-else' }, /aud/],
    ['another nonce', { nonce: 'not-the-one-sent' }, /nonce/],
    ['an expired ID token', { expiresIn: -600 }, /exp/],
  ])('refuses an ID token with %s (signed by the provider)', async (_label, change, reason) => {
    const d = domain();
    const { owner } = await connected([d]);
    const flow = await throughProvider(`tom@${d}`);
    await op.tamperNextIdToken(change);
    const res = await finish(flow.flow, flow.query);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SSO_SIGN_IN_FAILED');
    expect(res.body.message.startsWith(CHECKS)).toBe(true);
    expect(res.body.message).toMatch(reason);
    expect(res.headers['set-cookie']?.toString() ?? '').not.toMatch(/(^|,)session=[^;]/);
    expect(await entries(owner.organisationId, 'member.provisioned')).toEqual([]);
  });

  describe('require single sign-on (SPEC §8f)', () => {
    const PASSWORD = 'correct horse battery staple';
    const NOT_VERIFIED =
      'Nobody has signed in through this provider yet: sign in with single sign-on once, so it is known to work, before requiring it.';
    const ACT_FOR =
      'This organisation requires single sign-on: sign in with single sign-on to act for it (your password sign-in acts only for your other organisations).';
    const CHOOSE =
      'choose "Sign in with single sign-on" on the sign-in page instead of your password';

    const requirement = (owner: SignedUpOwner, requireSso: unknown) =>
      http()
        .put('/api/organisation/sso/requirement')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId)
        .send({ requireSso });
    const signIn = (email: string, password = PASSWORD) =>
      http().post('/api/auth/sign-in').send({ email, password });
    const session = (cookie: string, organisationId: string) =>
      http()
        .get('/api/auth/session')
        .set('cookie', cookie)
        .set('x-organisation-id', organisationId);

    it('needs a provider that has signed someone in; then password sign-in no longer acts for the organisation, an Owner breaks glass (audited), keys work', async () => {
      const d = domain();
      const name = `Acme ${randomBytes(3).toString('hex')}`;
      const { owner } = await connected([d], name);
      const server = t.app.getHttpServer();
      const roles = await builtInRoleIds(server, owner.cookie);
      const member = await joinOrganisation(server, owner.cookie, roles.developer, 'Pat');
      const key = await createApiKey(server, owner.cookie);

      // Nobody has signed in through it: requiring it would lock everyone out.
      const early = await requirement(owner, true);
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ code: 'CONFLICT', message: NOT_VERIFIED });
      expect((await requirement(owner, 'yes')).status).toBe(400);
      await ssoSignIn(`grace@${d}`);

      const on = await requirement(owner, true);
      expect(on.status).toBe(200);
      expect(on.body.connection).toMatchObject({
        requireSso: true,
        verifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      // Setting it again changes (and audits) nothing.
      expect((await requirement(owner, true)).status).toBe(200);
      expect(
        (await entries(owner.organisationId, 'settings.sso_requirement_changed')).map((e) => [
          e.summary,
          e.metadata,
        ]),
      ).toEqual([
        [
          'Single sign-on required for members by Ada Lovelace',
          { requireSso: true, issuer: op.issuer },
        ],
      ]);

      // The member's password session stops acting for it at its next request…
      const refused = await session(member.cookie, owner.organisationId);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        statusCode: 403,
        error: 'Forbidden',
        code: 'SSO_REQUIRED',
        message: ACT_FOR,
      });
      // …and a new password sign-in is refused (the password was right: no failure counted).
      const password = await signIn(member.email);
      expect(password.status).toBe(403);
      expect(password.body).toMatchObject({
        code: 'SSO_REQUIRED',
        message: `${name} signs its members in with single sign-on: ${CHOOSE}.`,
      });
      expect(password.headers['set-cookie']?.toString() ?? '').not.toMatch(/(^|,)session=[^;]/);
      expect((await signIn(member.email, 'not the password')).status).toBe(401);

      // The Owner's password is the break-glass path, written in the audit log.
      const glass = await signIn(owner.email);
      expect(glass.status).toBe(200);
      expect(glass.body.organisations.map((o: { id: string }) => o.id)).toEqual([
        owner.organisationId,
      ]);
      expect((await session(sessionCookieOf(glass), owner.organisationId)).status).toBe(200);
      expect(
        (await entries(owner.organisationId, 'member.break_glass_sign_in')).map((e) => [
          e.actor_id,
          e.summary,
          e.metadata,
        ]),
      ).toEqual([
        [
          owner.memberId,
          'Ada Lovelace signed in with a password (Owner break-glass: this organisation requires single sign-on)',
          { email: owner.email },
        ],
      ]);

      // API keys are not sign-ins: unaffected.
      const agent = await http().get('/api/interrupts').set('x-api-key', key.key);
      expect(agent.status).toBe(200);

      // The provider cannot be swapped for one that never signed anyone in while it is required;
      // the same issuer and client (a new secret, domains) can change.
      const swap = await http()
        .put('/api/organisation/sso')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId)
        .send({
          issuer: op.issuer,
          clientId: 'someone-else',
          clientSecret: 'other-secret-0123456789',
          allowedDomains: [d],
          defaultRoleId: roles.manager,
        });
      expect(swap.status).toBe(409);
      expect(swap.body.message).toBe(
        'This organisation requires single sign-on: turn that off before changing the issuer or client id (the new provider has signed nobody in yet).',
      );
      const same = await http()
        .put('/api/organisation/sso')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId)
        .send({
          issuer: op.issuer,
          clientId: CLIENT.client_id,
          clientSecret: CLIENT.client_secret,
          allowedDomains: [d],
          defaultRoleId: roles.manager,
        });
      expect(same.status).toBe(200);
      expect(same.body.connection).toMatchObject({
        requireSso: true,
        verifiedAt: expect.any(String),
      });

      // Turned off: the member's password works again.
      const off = await requirement(owner, false);
      expect(off.status).toBe(200);
      expect(off.body.connection.requireSso).toBe(false);
      expect((await session(member.cookie, owner.organisationId)).status).toBe(200);
      expect((await signIn(member.email)).status).toBe(200);
      expect(
        (await entries(owner.organisationId, 'settings.sso_requirement_changed')).map(
          (e) => e.summary,
        ),
      ).toEqual([
        'Single sign-on required for members by Ada Lovelace',
        'Single sign-on no longer required by Ada Lovelace',
      ]);

      // A new issuer or client id has signed nobody in: verification starts again.
      const other = await http()
        .put('/api/organisation/sso')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId)
        .send({
          issuer: op.issuer,
          clientId: 'someone-else',
          clientSecret: 'other-secret-0123456789',
          allowedDomains: [d],
          defaultRoleId: roles.manager,
        });
      expect(other.status).toBe(200);
      expect(other.body.connection).toMatchObject({ requireSso: false, verifiedAt: null });
      expect((await requirement(owner, true)).body.message).toBe(NOT_VERIFIED);
    });

    it('a member of several organisations signs in with a password for the others only; an invitation into it is used by signing in with single sign-on', async () => {
      const d = domain();
      const name = `Initech ${randomBytes(3).toString('hex')}`;
      const { owner } = await connected([d], name);
      const server = t.app.getHttpServer();
      const roles = await builtInRoleIds(server, owner.cookie);
      // Someone with their own organisation who is also a Developer here.
      const elsewhere = await signUpOwner(server, {
        name: 'Kim',
        organisationName: 'Kim & Co',
      });
      await joinWithAccount(server, owner.cookie, roles.developer, elsewhere);
      await ssoSignIn(`grace@${d}`);
      expect((await requirement(owner, true)).status).toBe(200);

      const signedIn = await signIn(elsewhere.email);
      expect(signedIn.status).toBe(200);
      // Only what the session acts for is listed; the organisation that requires it answers 403.
      expect(signedIn.body.organisations.map((o: { id: string }) => o.id)).toEqual([
        elsewhere.organisationId,
      ]);
      const cookie = sessionCookieOf(signedIn);
      const me = await http().get('/api/me').set('cookie', cookie);
      expect(me.body.organisations.map((o: { id: string }) => o.id)).toEqual([
        elsewhere.organisationId,
      ]);
      expect((await session(cookie, elsewhere.organisationId)).status).toBe(200);
      const there = await session(cookie, owner.organisationId);
      expect(there.status).toBe(403);
      expect(there.body.message).toBe(ACT_FOR);
      expect(await entries(owner.organisationId, 'member.break_glass_sign_in')).toEqual([]);

      // An invitation: not with a password (a new account or a signed-in one)…
      const email = `ivy@${d}`;
      const invited = await http()
        .post('/api/invitations')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId)
        .send({ email, roleId: roles.developer });
      expect(invited.status).toBe(201);
      const JOIN = `${name} signs its members in with single sign-on: ${CHOOSE}, which makes you a member with this invitation's role.`;
      const accept = await http()
        .post(`/api/invitations/${invited.body.token as string}/accept`)
        .send({ name: 'Ivy', password: PASSWORD });
      expect(accept.status).toBe(403);
      expect(accept.body).toMatchObject({ code: 'SSO_REQUIRED', message: JOIN });
      const lee = await signUpOwner(server, { name: 'Lee', organisationName: 'Lee Ltd' });
      const second = await http()
        .post('/api/invitations')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId)
        .send({ email: lee.email, roleId: roles.manager });
      expect(second.status).toBe(201);
      const join = await http()
        .post(`/api/invitations/${second.body.token as string}/join`)
        .set('cookie', lee.cookie)
        .send({});
      expect(join.status).toBe(403);
      expect(join.body).toMatchObject({ code: 'SSO_REQUIRED', message: JOIN });
      // …but by signing in with single sign-on, with the invitation's role.
      const joined = await ssoSignIn(email);
      expect(joined.body.organisation).toMatchObject({
        id: owner.organisationId,
        roleId: roles.developer,
        roleName: 'Developer',
      });
      expect(
        (await entries(owner.organisationId, 'member.joined'))
          .map((e) => e.metadata as { email: string; invitationId: string; role: string })
          .filter((m) => m.email === email),
      ).toEqual([
        { invitationId: invited.body.id, email, roleId: roles.developer, role: 'Developer' },
      ]);
      const invitations = await http()
        .get('/api/invitations')
        .set('cookie', owner.cookie)
        .set('x-organisation-id', owner.organisationId);
      expect(
        (invitations.body.invitations as { email: string; acceptedAt: string | null }[]).find(
          (i) => i.email === email,
        )?.acceptedAt,
      ).toEqual(expect.any(String));
      expect(
        (await entries(owner.organisationId, 'member.provisioned')).map(
          (e) => (e.metadata as { email: string }).email,
        ),
      ).toEqual([`grace@${d}`]);
    });
  });

  it('an organisation that requires two-factor sign-in: a single sign-on session acts (the provider’s policy applies), a password one without it does not', async () => {
    const d = domain();
    const { owner } = await connected([d]);
    const as = (r: request.Test) =>
      r.set('cookie', owner.cookie).set('x-organisation-id', owner.organisationId);
    const setup = await as(http().post('/api/me/two-factor/setup')).send({
      password: owner.password,
    });
    expect(setup.status).toBe(200);
    const confirm = await as(http().post('/api/me/two-factor/confirm')).send({
      code: totpCode(setup.body.secret as string, Date.now()),
    });
    expect(confirm.status).toBe(200);
    const required = await as(http().put('/api/organisation/two-factor-requirement')).send({
      requireTwoFactor: true,
    });
    expect(required.status).toBe(200);

    const email = `sso-mfa@${d}`;
    const signedIn = await ssoSignIn(email);
    const bySso = await http()
      .get('/api/auth/session')
      .set('cookie', signedIn.cookie)
      .set('x-organisation-id', owner.organisationId);
    expect(bySso.status).toBe(200);
    expect(bySso.body.signedInWith).toBe('single_sign_on');
    // The same person with a password (a reset sets one) and no second factor: refused there.
    await db().query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [
      signedIn.body.user.id,
      (await db().query(`SELECT password_hash FROM users WHERE id = $1`, [owner.memberId]))[0]
        .password_hash,
    ]);
    const password = await http()
      .post('/api/auth/sign-in')
      .send({ email, password: owner.password });
    expect(password.status).toBe(200);
    const byPassword = await http()
      .get('/api/auth/session')
      .set('cookie', sessionCookieOf(password))
      .set('x-organisation-id', owner.organisationId);
    expect(byPassword.status).toBe(403);
    expect(byPassword.body.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
  });

  describe('the start is throttled per client address (SPEC §8b)', () => {
    let limited: TestApp;
    const LIMITED = {
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'RATE_LIMITED',
      message: 'Too many requests. Try again later.',
    };

    beforeAll(async () => {
      limited = await startTestApp({
        env: {
          DASHBOARD_URL: DASHBOARD,
          SSO_DNS_SERVERS: dns.address,
          TRUST_PROXY: '1',
          RATE_LIMIT_SSO_START_ADDRESS_REQUESTS: '3',
          RATE_LIMIT_SSO_START_WINDOW_SECONDS: '600',
        },
      });
    });
    afterAll(async () => {
      await limited?.close();
    });

    it('3 starts from one address (IPv6 by /64), then 429 with Retry-After whatever the domain; another address starts', async () => {
      const server = limited.app.getHttpServer();
      const d = await connectedOn(server);
      const start = (email: string, from: string) =>
        request(server).post('/api/auth/sso').set('x-forwarded-for', from).send({ email });

      expect((await start(`ann@${d}`, '2001:db8:5:1::1')).status).toBe(200);
      expect((await start('ann@unknown.test', '2001:db8:5:1::2')).status).toBe(404);
      expect((await start(`bob@${d}`, '2001:db8:5:1::3')).status).toBe(200);
      // The same /64: its starts are spent, for a domain with single sign-on or without.
      for (const email of [`ann@${d}`, 'ann@unknown.test']) {
        const refused = await start(email, '2001:db8:5:1:abcd::9');
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject(LIMITED);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(refused.headers['set-cookie']).toBeUndefined();
      }
      expect((await start(`ann@${d}`, '2001:db8:5:2::1')).status).toBe(200);
      expect((await start(`ann@${d}`, '198.51.100.7')).status).toBe(200);
    });
  });
  describe('single sign-on and the password sign-in backstop (SPEC §8b, §8f)', () => {
    let guarded: TestApp;
    let sink: SmtpSink;

    beforeAll(async () => {
      sink = new SmtpSink();
      await sink.start();
      guarded = await startTestApp({
        env: {
          DASHBOARD_URL: DASHBOARD,
          SSO_DNS_SERVERS: dns.address,
          TRUST_PROXY: '1',
          RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES: '2',
          RATE_LIMIT_SIGN_IN_ACCOUNT_BACKSTOP_FAILURES: '6',
          RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: '600',
          SMTP_URL: sink.url,
          MAIL_FROM: 'Interlock <accounts@interlock.test>',
        },
      });
    });
    afterAll(async () => {
      await guarded?.app.get(AfterAnswer).settled();
      await guarded?.close();
      await sink?.stop();
    });

    it('a single sign-on makes its client address known to a password account, as a password sign-in does: the spent backstop refuses strangers, not there; an account without a password has nothing remembered and is not emailed', async () => {
      const server = guarded.app.getHttpServer();
      const d = await connectedOn(server);
      /** A whole single sign-on whose callback comes from `from`; `passwordSession` links. */
      const ssoFrom = async (email: string, from: string, passwordSession?: string) => {
        const walk = await walkThroughProvider(server, REDIRECT, email);
        const cookies = [walk.flow, passwordSession].filter((c) => c !== undefined).join('; ');
        const res = await request(server)
          .post('/api/auth/sso/callback')
          .set('cookie', cookies)
          .set('x-forwarded-for', from)
          .send({ callbackQuery: walk.query });
        expect(res.status).toBe(200);
        return res;
      };
      const signIn = (email: string, password: string, from: string) =>
        request(server)
          .post('/api/auth/sign-in')
          .set('x-forwarded-for', from)
          .send({ email, password });
      const spendBackstop = async (email: string) => {
        for (let i = 1; i <= 3; i++)
          for (const guess of ['guess one', 'guess two'])
            expect((await signIn(email, guess, `192.0.2.${i}`)).status).toBe(401);
      };

      // Pat has a password; she links single sign-on from one address and signs in with it from another.
      const pat = await signUpOwner(server, { email: `pat@${d}`, name: 'Pat' });
      const linkedFrom = '203.0.113.10';
      const ssoOnlyFrom = '2001:db8:77:1::1';
      await ssoFrom(pat.email, linkedFrom, pat.cookie);
      await ssoFrom(pat.email, ssoOnlyFrom);
      await spendBackstop(pat.email);
      expect((await signIn(pat.email, pat.password, '198.51.100.99')).status).toBe(429);
      // Where the provider signed her in, the backstop does not refuse her password (an IPv6
      // address by its /64, as everywhere in the throttle).
      expect((await signIn(pat.email, pat.password, linkedFrom)).status).toBe(200);
      expect((await signIn(pat.email, pat.password, '2001:db8:77:1::abcd')).status).toBe(200);

      // Quinn's account is made by single sign-on: no password, nothing remembered for it.
      const known = async () =>
        (
          await guarded.app
            .get(DataSource)
            .query(
              `SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE 'sign_in_known_address:%'`,
            )
        )[0].n as number;
      const before = await known();
      const quinn = `quinn@${d}`;
      await ssoFrom(quinn, '203.0.113.11');
      expect(await known()).toBe(before);
      // Guessing at a password it does not have: refused alike, and nobody emailed about it.
      await spendBackstop(quinn);
      expect((await signIn(quinn, 'guess three', '203.0.113.11')).status).toBe(429);
      await guarded.app.get(AfterAnswer).settled();
      expect(sink.to(quinn)).toEqual([]);
      // Pat, who has one, was told.
      expect(
        sink.withSubject(
          pat.email,
          'Sign-ins to your Interlock account are refused from new addresses for now',
        ),
      ).toHaveLength(1);
    });
  });
});
