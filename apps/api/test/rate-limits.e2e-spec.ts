import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AfterAnswer } from '../src/users/after-answer';
import { accountsSuite, ACCOUNTS_DASHBOARD } from './support/accounts-suite';
import { createApiKey, signUpOwner, SignedUpOwner, uniqueEmail } from './support/factories';
import { linkToken } from './support/smtp-sink';
import { ServiceProcess, startServiceProcesses } from './support/service-process';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LIMITED = {
  statusCode: 429,
  error: 'Too Many Requests',
  code: 'RATE_LIMITED',
  message: 'Too many requests. Try again later.',
};

/** Waits until just after a multiple of `windowMs` (fixed windows start there). */
async function startOfWindow(windowMs: number): Promise<void> {
  await sleep(windowMs - (Date.now() % windowMs) + 20);
}

// SPEC §8b: sign-in and sign-up are throttled per account and per client address; API keys have
// a per-organisation request budget; the limits are shared by every instance (Postgres).
describe('rate limits', () => {
  describe('sign-in, per account', () => {
    let t: TestApp;
    let owner: SignedUpOwner;
    const http = () => request(t.app.getHttpServer());
    const signIn = (email: string, password: string) =>
      http().post('/api/auth/sign-in').send({ email, password });

    beforeAll(async () => {
      // A window long enough for four scrypt checks on a busy test machine.
      t = await startTestApp({
        env: { RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES: '3', RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: '8' },
      });
      owner = await signUpOwner(t.app.getHttpServer());
    });
    afterAll(async () => {
      await t.close();
    });

    it('after 3 failures: 429 with Retry-After, even for the right password, the same whether the account exists or not', async () => {
      const unknown = uniqueEmail('nobody');
      const answers: Record<
        string,
        { status: number; body: Record<string, unknown>; retryAfter: string }[]
      > = { known: [], unknown: [] };
      for (const [label, email] of [
        ['known', owner.email],
        ['unknown', unknown],
      ] as const) {
        for (let i = 0; i < 3; i++) {
          const res = await signIn(email, 'not the password');
          expect(res.status).toBe(401);
        }
        const res = await signIn(email, label === 'known' ? owner.password : 'any password');
        answers[label].push({
          status: res.status,
          body: res.body,
          retryAfter: res.headers['retry-after'],
        });
      }
      for (const label of ['known', 'unknown']) {
        const [answer] = answers[label];
        expect(answer.status).toBe(429);
        expect(answer.body).toMatchObject(LIMITED);
        expect(Object.keys(answer.body).sort()).toEqual([
          'code',
          'error',
          'message',
          'requestId',
          'statusCode',
        ]);
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(answer.retryAfter)).toBeLessThanOrEqual(8);
      }
    });

    it('signs in after the window', async () => {
      // The refusal is this test's own: under load the previous test can outlast its window,
      // so fail until refused (3 failures in one window must come within a few tries).
      let refused = await signIn(owner.email, 'not the password');
      for (let i = 0; i < 9 && refused.status === 401; i++)
        refused = await signIn(owner.email, 'not the password');
      expect(refused.status).toBe(429);
      await sleep(Number(refused.headers['retry-after']) * 1000 + 100);
      const res = await signIn(owner.email, owner.password);
      expect(res.status).toBe(200);
      // A success is not a failure: it gave its point back.
      for (let i = 0; i < 2; i++) expect((await signIn(owner.email, 'wrong')).status).toBe(401);
      expect((await signIn(owner.email, owner.password)).status).toBe(200);
    });

    it('fails open, and says so, when the limiter cannot reach its table', async () => {
      const ds = t.app.get(DataSource);
      await ds.query(`ALTER TABLE rate_limits RENAME TO rate_limits_away`);
      try {
        const email = uniqueEmail('open');
        for (let i = 0; i < 5; i++) expect((await signIn(email, 'wrong')).status).toBe(401);
        expect((await signIn(owner.email, owner.password)).status).toBe(200);
      } finally {
        await ds.query(`ALTER TABLE rate_limits_away RENAME TO rate_limits`);
      }
      expect(
        t.logs.some(
          (l) => l.msg === 'rate limiter unavailable: attempt let through' && l.level === 'warn',
        ),
      ).toBe(true);
    });
  });

  describe('sign-in per account and address (IPv6 by /64), with the per-account backstop', () => {
    let t: TestApp;
    let owner: SignedUpOwner;
    const signIn = (email: string, password: string, from: string) =>
      request(t.app.getHttpServer())
        .post('/api/auth/sign-in')
        .set('x-forwarded-for', from)
        .send({ email, password });

    beforeAll(async () => {
      t = await startTestApp({
        env: {
          TRUST_PROXY: '1',
          RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES: '2',
          RATE_LIMIT_SIGN_IN_ACCOUNT_BACKSTOP_FAILURES: '6',
          RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: '600',
        },
      });
      owner = await signUpOwner(t.app.getHttpServer());
    });
    afterAll(async () => {
      await t.close();
    });

    it("a stranger's failures lock out only their own address: the owner elsewhere still signs in", async () => {
      for (let i = 0; i < 2; i++)
        expect((await signIn(owner.email, 'guess', '203.0.113.66')).status).toBe(401);
      const refused = await signIn(owner.email, owner.password, '203.0.113.66');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject(LIMITED);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The same address written IPv4-mapped is the same address.
      expect((await signIn(owner.email, owner.password, '::ffff:203.0.113.66')).status).toBe(429);
      expect((await signIn(owner.email, owner.password, '198.51.100.7')).status).toBe(200);
    });

    it('counts an IPv6 client by its /64: another address of the network is refused, another network is not', async () => {
      const email = uniqueEmail('v6');
      for (const from of ['2001:db8:7:1::1', '2001:db8:7:1::ffff'])
        expect((await signIn(email, 'guess', from)).status).toBe(401);
      expect((await signIn(email, 'guess', '2001:db8:7:1:abcd::9')).status).toBe(429);
      expect((await signIn(email, 'guess', '2001:db8:7:2::1')).status).toBe(401);
    });

    it('the backstop: failures from many addresses together refuse the account everywhere', async () => {
      const email = uniqueEmail('many');
      for (let i = 1; i <= 6; i++)
        expect((await signIn(email, 'guess', `192.0.2.${i}`)).status).toBe(401);
      const refused = await signIn(email, 'guess', '192.0.2.200');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject(LIMITED);
    });
  });

  describe('the backstop never refuses the owner where the account is known (SPEC §8b)', () => {
    const suite = accountsSuite({
      TRUST_PROXY: '1',
      RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES: '2',
      RATE_LIMIT_SIGN_IN_ACCOUNT_BACKSTOP_FAILURES: '20',
      RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: '600',
    });
    const signIn = (email: string, password: string, from: string) =>
      suite.http().post('/api/auth/sign-in').set('x-forwarded-for', from).send({ email, password });

    it('an attacker over 12 addresses spends the backstop: the owner still signs in where they did before; a new address of theirs once a reset link is used there', async () => {
      const owner = await signUpOwner(suite.server());
      const usual = '198.51.100.7';
      expect((await signIn(owner.email, owner.password, usual)).status).toBe(200);
      expect((await signIn(owner.email, owner.password, '2001:db8:5:1::1')).status).toBe(200);

      const answers: number[] = [];
      for (let i = 1; i <= 12; i++)
        for (const guess of ['guess one', 'guess two'])
          answers.push((await signIn(owner.email, guess, `192.0.2.${i}`)).status);
      // 20 failures spend the backstop; from then on every stranger's address is refused.
      expect(answers).toEqual([...Array(20).fill(401), ...Array(4).fill(429)]);
      const stranger = await signIn(owner.email, owner.password, '192.0.2.13');
      expect(stranger.status).toBe(429);
      expect(stranger.body).toMatchObject(LIMITED);
      expect(Number(stranger.headers['retry-after'])).toBeGreaterThanOrEqual(1);

      // Where the owner signed in before (an IPv6 address by its /64), the backstop does not count:
      // a typo there is a 401, the password signs in.
      expect((await signIn(owner.email, 'a typo', usual)).status).toBe(401);
      expect((await signIn(owner.email, owner.password, usual)).status).toBe(200);
      expect((await signIn(owner.email, owner.password, '2001:db8:5:1::abcd')).status).toBe(200);

      // A new address of the owner's is a stranger's until the emailed reset link is used there.
      const away = '203.0.113.9';
      expect((await signIn(owner.email, owner.password, away)).status).toBe(429);
      const asked = await suite
        .http()
        .post('/api/auth/password-reset')
        .set('x-forwarded-for', away)
        .send({ email: owner.email });
      expect(asked.status).toBe(202);
      const subject = 'Reset your Interlock password';
      await suite.sink.until(() => suite.mailsTo(owner.email, subject).length === 1, 60_000);
      const [mail] = suite.mailsTo(owner.email, subject);
      const password = 'a new correct horse battery';
      const reset = await suite
        .http()
        .post('/api/auth/password-reset/confirm')
        .set('x-forwarded-for', away)
        .send({ token: linkToken(mail, ACCOUNTS_DASHBOARD, 'reset-password'), password });
      expect(reset.status).toBe(204);
      expect((await signIn(owner.email, password, away)).status).toBe(200);
      // Strangers are still refused: the backstop is spent for them.
      expect((await signIn(owner.email, password, '192.0.2.14')).status).toBe(429);
      // The new password forgot the addresses known for the old one (whoever had the old password
      // keeps no address the backstop leaves out): the usual address proves itself again.
      expect((await signIn(owner.email, password, usual)).status).toBe(429);
      expect((await signIn(owner.email, password, '2001:db8:5:1::1')).status).toBe(429);
    });
  });

  describe('the owner is told when the backstop refuses a sign-in (SPEC §8b)', () => {
    const suite = accountsSuite({
      TRUST_PROXY: '1',
      RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES: '2',
      RATE_LIMIT_SIGN_IN_ACCOUNT_BACKSTOP_FAILURES: '6',
      RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: '600',
    });
    const signIn = (email: string, password: string, from: string) =>
      suite.http().post('/api/auth/sign-in').set('x-forwarded-for', from).send({ email, password });
    const subject = 'Sign-ins to your Interlock account are refused from new addresses for now';
    const settled = () => suite.t.app.get(AfterAnswer).settled();

    it('emailed once per backstop window, at its first refusal: what happened, until when, what to do; an address nobody has gets nothing', async () => {
      const owner = await signUpOwner(suite.server());
      const began = Date.now();
      const failures: number[] = [];
      for (let i = 1; i <= 3; i++)
        for (const guess of ['guess one', 'guess two'])
          failures.push((await signIn(owner.email, guess, `198.18.0.${i}`)).status);
      expect(failures).toEqual(Array(6).fill(401));
      await settled();
      // Spent, but nothing refused yet: nothing to tell.
      expect(suite.mailsTo(owner.email, subject)).toEqual([]);

      expect((await signIn(owner.email, 'guess three', '198.18.0.4')).status).toBe(429);
      await suite.sink.until(() => suite.mailsTo(owner.email, subject).length === 1, 60_000);
      const [mail] = suite.mailsTo(owner.email, subject);
      const text = mail?.parsed.text ?? '';
      expect(text).toContain(
        `a sign-in to your Interlock account ${owner.email} from 198.18.0.4 was refused: 6 sign-ins failed (a wrong password, or a wrong two-factor code) within 1 day from addresses where you have not signed in lately. Nobody got in through them.`,
      );
      expect(text).toContain(
        'sign-ins from such new addresses are refused, even with the right password',
      );
      expect(text).toContain(`Choose a new password: ${ACCOUNTS_DASHBOARD}/reset-password`);
      // Until the backstop's window ends: a day after the first failure, to the minute.
      const until = /Until about (\d{4}-\d\d-\d\d \d\d:\d\d) \(UTC\)/.exec(text)?.[1];
      const untilMs = Date.parse(`${until?.replace(' ', 'T')}:00Z`);
      expect(untilMs).toBeGreaterThanOrEqual(began + 86_400_000 - 60_000);
      expect(untilMs).toBeLessThanOrEqual(Date.now() + 86_400_000 + 60_000);

      // More refusals in the window, the owner's right password among them: no second email.
      expect((await signIn(owner.email, owner.password, '198.18.0.5')).status).toBe(429);
      expect((await signIn(owner.email, 'guess four', '198.18.0.6')).status).toBe(429);
      await settled();
      expect(suite.mailsTo(owner.email, subject)).toHaveLength(1);

      // An address without an account: refused alike, and nobody is emailed.
      const nobody = uniqueEmail('nobody');
      for (let i = 1; i <= 3; i++)
        for (const guess of ['guess one', 'guess two'])
          expect((await signIn(nobody, guess, `198.18.1.${i}`)).status).toBe(401);
      expect((await signIn(nobody, 'guess three', '198.18.1.4')).status).toBe(429);
      await settled();
      expect(suite.sink.to(nobody)).toEqual([]);
    });
  });

  describe('sign-in per address, and sign-up', () => {
    let t: TestApp;
    const http = () => request(t.app.getHttpServer());

    beforeAll(async () => {
      t = await startTestApp({
        env: {
          RATE_LIMIT_SIGN_IN_ADDRESS_FAILURES: '4',
          RATE_LIMIT_SIGN_UP_ADDRESS_ATTEMPTS: '3',
          RATE_LIMIT_SIGN_UP_ACCOUNT_ATTEMPTS: '2',
        },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    it('sign-in: 4 failures from one address over different accounts, then 429 for any account', async () => {
      for (let i = 0; i < 4; i++)
        expect(
          (
            await http()
              .post('/api/auth/sign-in')
              .send({ email: uniqueEmail('spray'), password: 'x' })
          ).status,
        ).toBe(401);
      const res = await http()
        .post('/api/auth/sign-in')
        .send({ email: uniqueEmail('spray'), password: 'x' });
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject(LIMITED);
      expect(res.headers['retry-after']).toBeDefined();
    });

    it('sign-up: 2 attempts per account, 3 per address', async () => {
      const body = (email: string) => ({
        email,
        password: 'correct horse battery',
        name: 'N',
        organisationName: 'O',
      });
      const email = uniqueEmail('twice');
      expect((await http().post('/api/auth/sign-up').send(body(email))).status).toBe(201);
      expect((await http().post('/api/auth/sign-up').send(body(email))).status).toBe(409);
      const third = await http().post('/api/auth/sign-up').send(body(email));
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject(LIMITED);
      // The refused attempt did not count against the address: one more sign-up is left.
      expect(
        (
          await http()
            .post('/api/auth/sign-up')
            .send(body(uniqueEmail('other')))
        ).status,
      ).toBe(201);
      const fourth = await http()
        .post('/api/auth/sign-up')
        .send(body(uniqueEmail('another')));
      expect(fourth.status).toBe(429);
      expect(fourth.headers['retry-after']).toBeDefined();
    });
  });

  describe('API keys: the organisation budget', () => {
    let t: TestApp;
    let key: string;
    let otherKey: string;
    const http = () => request(t.app.getHttpServer());
    const whoami = (k: string) => http().get('/api/whoami').set('x-api-key', k);

    beforeAll(async () => {
      t = await startTestApp({
        env: { RATE_LIMIT_API_KEY_REQUESTS: '5', RATE_LIMIT_API_KEY_WINDOW_SECONDS: '3' },
      });
      const server = t.app.getHttpServer();
      const owner = await signUpOwner(server);
      key = (await createApiKey(server, owner.cookie)).key;
      const second = (await createApiKey(server, owner.cookie)).key;
      otherKey = (await createApiKey(server, (await signUpOwner(server)).cookie)).key;
      void second;
    });
    afterAll(async () => {
      await t.close();
    });

    it('5 requests per window per organisation, with RateLimit-* on each answer, then 429 with Retry-After', async () => {
      await startOfWindow(3_000);
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await whoami(key);
        expect(res.status).toBe(200);
        expect(res.headers['ratelimit-limit']).toBe('5');
        expect(res.headers['ratelimit-policy']).toBe('5;w=3');
        expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(3);
        remaining.push(res.headers['ratelimit-remaining']);
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      const refused = await whoami(key);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject(LIMITED);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['retry-after']).toBe(refused.headers['ratelimit-reset']);
      // Another organisation's budget is its own.
      expect((await whoami(otherKey)).status).toBe(200);
      // The next window.
      await sleep(Number(refused.headers['retry-after']) * 1000);
      expect((await whoami(key)).status).toBe(200);
    });

    it('an invalid key is refused before it spends anything', async () => {
      await startOfWindow(3_000);
      for (let i = 0; i < 10; i++)
        expect((await http().get('/api/whoami').set('x-api-key', 'ilk_nope')).status).toBe(401);
      expect((await whoami(key)).headers['ratelimit-remaining']).toBe('4');
    });

    it('keeps counting on its own, and answering, when the shared table cannot be reached', async () => {
      const ds = t.app.get(DataSource);
      await startOfWindow(3_000);
      await ds.query(`ALTER TABLE api_key_request_windows RENAME TO api_key_request_windows_away`);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++) {
          statuses.push((await whoami(otherKey)).status);
          await sleep(60);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      } finally {
        await ds.query(
          `ALTER TABLE api_key_request_windows_away RENAME TO api_key_request_windows`,
        );
      }
      expect(
        t.logs.some(
          (l) => l.msg === 'API key budget: cannot share counts; counting on this instance only',
        ),
      ).toBe(true);
    });
  });

  describe('shared by two instances', () => {
    let db: TestDatabase;
    let a: ServiceProcess;
    let b: ServiceProcess;
    // The test's own connection to the instances' database, to see the shared counts.
    let table: Client;
    const WINDOW_MS = 10_000;

    beforeAll(async () => {
      db = await createMigratedTestDatabase();
      const env = {
        DATABASE_URL: db.url,
        API_KEY_PEPPER: 'rate-limit-pepper-0123456789abcdef012345',
        RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES: '4',
        RATE_LIMIT_API_KEY_REQUESTS: '40',
        RATE_LIMIT_API_KEY_WINDOW_SECONDS: String(WINDOW_MS / 1000),
      };
      [a, b] = await startServiceProcesses(env, 2);
      table = new Client({ connectionString: db.url });
      await table.connect();
    });
    afterAll(async () => {
      await table?.end();
      // After a failed start there is nothing to stop (startServiceProcesses stopped what it started).
      if (a) expect(await a.stop()).toBe(0);
      if (b) expect(await b.stop()).toBe(0);
      await db.drop();
    });

    const post = (
      s: ServiceProcess,
      path: string,
      body: unknown,
      headers: Record<string, string> = {},
    ) =>
      fetch(`${s.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });

    it('sign-in failures through either count toward one limit', async () => {
      const email = 'shared@example.test';
      expect(
        (
          await post(a, '/api/auth/sign-up', {
            email,
            password: 'a long password',
            name: 'S',
            organisationName: 'S',
          })
        ).status,
      ).toBe(201);
      const failures = [a, b, a, b];
      for (const s of failures)
        expect((await post(s, '/api/auth/sign-in', { email, password: 'wrong' })).status).toBe(401);
      for (const s of [a, b]) {
        const res = await post(s, '/api/auth/sign-in', { email, password: 'a long password' });
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).not.toBeNull();
      }
    });

    it('the key budget: what A admitted, B does not admit again', async () => {
      const signUp = await post(a, '/api/auth/sign-up', {
        email: 'budget@example.test',
        password: 'a long password',
        name: 'B',
        organisationName: 'B',
      });
      const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
      const { key } = (await (
        await post(a, '/api/api-keys', { name: 'agent', expiry: 'never' }, { cookie })
      ).json()) as { key: string };
      const whoami = (s: ServiceProcess) =>
        fetch(`${s.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } });
      const { organisationId } = (await (await whoami(a)).json()) as { organisationId: string };
      // The shared count of a window, and how many times an instance has written it (each sync of
      // either instance adds its pending count, zero too, and reads the total back): what the
      // instances know is waited for there, not slept for.
      const shared = async (window: number) => {
        const { rows } = await table.query<{ requests: string; version: string }>(
          'SELECT requests, xmin::text AS version FROM api_key_request_windows WHERE organisation_id = $1 AND window_start = $2',
          [organisationId, new Date(window)],
        );
        return { requests: Number(rows[0]?.requests ?? 0), version: rows[0]?.version };
      };
      // Fixed windows of 10 s: the steps below take longer on a loaded machine now and then, and
      // a window that ends under them starts the budget again; they are taken again in the next.
      for (let attempt = 1; ; attempt++) {
        await startOfWindow(WINDOW_MS);
        const window = Date.now() - (Date.now() % WINDOW_MS);
        const over = () => Date.now() >= window + WINDOW_MS;
        const sharedReaches = (requests: number, what: string) =>
          waitFor(async () => over() || (await shared(window)).requests >= requests, what);
        const onA: number[] = [];
        for (let i = 0; i < 30; i++) onA.push((await whoami(a)).status);
        await sharedReaches(30, "A's 30 in the shared count");
        // B's first request of the window has it add its one and read the total back (31).
        const first = (await whoami(b)).status;
        await sharedReaches(31, "B's first request in the shared count");
        const onB: number[] = [];
        for (let i = 0; i < 20; i++) onB.push((await whoami(b)).status);
        // B's nine admissions reach the table; then four more writes of it (the two instances
        // each sync every 250 ms), so that A has read the total back since.
        await sharedReaches(40, "B's admissions in the shared count");
        let writes = 0;
        let seen = (await shared(window)).version;
        await waitFor(async () => {
          const { version } = await shared(window);
          if (version !== seen) [writes, seen] = [writes + 1, version];
          return over() || writes >= 4;
        }, 'four syncs after B wrote its admissions');
        const lastOnA = (await whoami(a)).status;
        if (over() && attempt < 3) continue;
        expect(onA).toEqual(Array(30).fill(200));
        expect(first).toBe(200);
        // 40 − 30 (A) − 1 (B's first) = 9 left; without sharing B would admit all 20.
        expect(onB.filter((s) => s === 200)).toHaveLength(9);
        expect(onB.slice(9)).toEqual(Array(11).fill(429));
        expect(lastOnA).toBe(429);
        return;
      }
    });
  });
});
