import { performance } from 'node:perf_hooks';
import { generateApiKey } from '@interlock/api-keys';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';
import { ServiceProcess, startServiceProcesses } from './support/service-process';

const PEPPER = 'two-process-pepper-0123456789abcdef0123';

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

// Two service processes on one database. SPEC §2: a revoked key answers 401 "at once — on every
// instance": after the revoke's 204, no instance accepts it. The same holds for plan changes,
// key expiry, sign-out and member removal (issue 10, defect 2).
describe('revocation across instances', () => {
  let db: TestDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let cookie: string;

  const call = (s: ServiceProcess, path: string, init: RequestInit = {}) =>
    fetch(`${s.baseUrl}${path}`, init);
  const post = (
    s: ServiceProcess,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) =>
    call(s, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const createKey = async (expiry = 'never') =>
    (await json(await post(a, '/api/api-keys', { name: 'agent', expiry }, { cookie }))) as {
      id: string;
      key: string;
    };

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    const env = { DATABASE_URL: db.url, API_KEY_PEPPER: PEPPER, LOG_LEVEL: 'info' };
    [a, b] = await startServiceProcesses(env, 2);
    const signUp = await post(a, '/api/auth/sign-up', {
      email: 'ops@example.test',
      password: 'a long password',
      name: 'Ops',
      organisationName: 'Two',
    });
    expect(signUp.status).toBe(201);
    cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
  });
  afterAll(async () => {
    // After a failed start there is nothing to stop (startServiceProcesses stopped what it started).
    if (a) expect(await a.stop()).toBe(0);
    if (b) expect(await b.stop()).toBe(0);
    await db.drop();
  });

  it('20 trials, 16 clients on B: not one request sent after the revoke answered through A succeeds', async () => {
    const late: string[] = [];
    const revokeMs: number[] = [];
    let servedBefore = 0;
    let refusedAfter = 0;
    for (let trial = 0; trial < 20; trial++) {
      const { id, key } = await createKey();
      // B caches the key.
      for (let i = 0; i < 5; i++)
        expect((await call(b, '/api/whoami', { headers: { 'x-api-key': key } })).status).toBe(200);

      let revokedAt = Number.POSITIVE_INFINITY;
      let stopAt = Number.POSITIVE_INFINITY;
      const client = async () => {
        while (performance.now() < stopAt) {
          const sentAt = performance.now();
          const res = await call(b, '/api/whoami', { headers: { 'x-api-key': key } });
          await res.arrayBuffer();
          if (sentAt > revokedAt) {
            if (res.status === 200)
              late.push(
                `trial ${trial}: a request sent ${(sentAt - revokedAt).toFixed(1)} ms after the 204 was served`,
              );
            else if (res.status === 401) refusedAfter++;
          } else if (res.status === 200) servedBefore++;
        }
      };
      const clients = Array.from({ length: 16 }, client);
      await new Promise((r) => setTimeout(r, 30));
      const revokeSent = performance.now();
      const revoked = await call(a, `/api/api-keys/${id}`, {
        method: 'DELETE',
        headers: { cookie },
      });
      revokedAt = performance.now();
      revokeMs.push(revokedAt - revokeSent);
      expect(revoked.status).toBe(204);
      stopAt = revokedAt + 60;
      await Promise.all(clients);
      const after = await call(b, '/api/whoami', { headers: { 'x-api-key': key } });
      expect(after.status).toBe(401);
      expect(await json(after)).toMatchObject({
        code: 'INVALID_API_KEY',
        message: 'Invalid API key.',
      });
    }
    expect(late).toEqual([]);
    // The clients really were running on both sides of every revoke.
    expect(servedBefore).toBeGreaterThan(20 * 16);
    expect(refusedAfter).toBeGreaterThan(20);
    // Both instances acknowledged: no revoke waited out the 3 s lease that covers a silent one.
    // A logs each revoke that did (a clock bound on every one of the 20 fails on a loaded machine
    // for one slow request: revokes peaked at 6 s at load 25–60, session 10); and the typical
    // revoke takes well under a lease, where a sync that is not woken by its acknowledgements
    // takes the lease and 250 ms every time.
    expect(
      a
        .output()
        .split('\n')
        .filter((line) => /did not acknowledge a change|waiting out the lease/.test(line)),
    ).toEqual([]);
    const median = [...revokeMs].sort((x, y) => x - y)[Math.floor(revokeMs.length / 2)];
    expect(median).toBeLessThan(3_000);
  });

  it('a plan change through A is seen by B for every request after its answer', async () => {
    const { key } = await createKey();
    expect((await json(await call(b, '/api/whoami', { headers: { 'x-api-key': key } }))).plan).toBe(
      'free',
    );
    for (const plan of ['pro', 'free', 'pro']) {
      const changed = await call(a, '/api/organisation/plan', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ plan }),
      });
      expect(changed.status).toBe(200);
      const seen = await Promise.all(
        Array.from(
          { length: 16 },
          async () =>
            (await json(await call(b, '/api/whoami', { headers: { 'x-api-key': key } }))).plan,
        ),
      );
      expect(new Set(seen)).toEqual(new Set([plan]));
    }
  });

  it('an expired key is refused by both from its expiry on', async () => {
    const { id, key } = await createKey('7d');
    expect((await call(b, '/api/whoami', { headers: { 'x-api-key': key } })).status).toBe(200);
    // Expiry is fixed at creation; only SQL can bring it near (the trigger tells the instances).
    const { Client } = await import('pg');
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    const [{ at }] = (
      await sql.query(
        `UPDATE api_keys SET expires_at = now() + interval '1 second' WHERE id = $1 RETURNING expires_at AS at`,
        [id],
      )
    ).rows as { at: Date }[];
    await sql.end();
    while (Date.now() < at.getTime()) {
      for (const s of [a, b]) {
        const res = await call(s, '/api/whoami', { headers: { 'x-api-key': key } });
        // Until the expiry, 200; a request that arrives after it must not be served.
        if (res.status !== 200) expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 50);
      }
    }
    for (const s of [a, b]) {
      const res = await call(s, '/api/whoami', { headers: { 'x-api-key': key } });
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({
        code: 'API_KEY_EXPIRED',
        message: 'API Key has expired',
      });
    }
  });

  it('sign-out and member removal through A hold on B at once', async () => {
    // A second sign-in of the owner, signed out through A.
    const signIn = await post(a, '/api/auth/sign-in', {
      email: 'ops@example.test',
      password: 'a long password',
    });
    const second = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await call(b, '/api/auth/session', { headers: { cookie: second } })).status).toBe(200);
    expect(
      (await call(a, '/api/auth/sign-out', { method: 'POST', headers: { cookie: second } })).status,
    ).toBe(204);
    expect((await call(b, '/api/auth/session', { headers: { cookie: second } })).status).toBe(401);

    // A member invited and removed through A.
    const roles = (await json(await call(a, '/api/roles', { headers: { cookie } }))) as {
      roles: { id: string; builtIn: string | null }[];
    };
    const developer = roles.roles.find((r) => r.builtIn === 'developer') as { id: string };
    const invited = (await json(
      await post(
        a,
        '/api/invitations',
        { email: 'dev@example.test', roleId: developer.id },
        { cookie },
      ),
    )) as {
      token: string;
    };
    const accepted = await post(a, `/api/invitations/${invited.token}/accept`, {
      name: 'Dev',
      password: 'another long password',
    });
    expect(accepted.status).toBe(201);
    const memberCookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0];
    const joined = (await json(accepted)) as { user: { id: string }; organisation: { id: string } };
    const acting = { cookie: memberCookie, 'x-organisation-id': joined.organisation.id };
    expect((await call(b, '/api/auth/session', { headers: acting })).status).toBe(200);
    expect(
      (await call(a, `/api/members/${joined.user.id}`, { method: 'DELETE', headers: { cookie } }))
        .status,
    ).toBe(204);
    // The membership ended (the person stays signed in, for their other organisations): B
    // refuses the organisation at once, as it refuses any organisation that is not theirs.
    const statuses = await Promise.all(
      Array.from(
        { length: 16 },
        async () => (await call(b, '/api/auth/session', { headers: acting })).status,
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([404]));
  });

  it('an unknown key is refused by both', async () => {
    const key = generateApiKey('ilk_');
    for (const s of [a, b])
      expect((await call(s, '/api/whoami', { headers: { 'x-api-key': key } })).status).toBe(401);
  });
});
