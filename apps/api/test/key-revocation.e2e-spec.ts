import { generateApiKey } from '@interlock/api-keys';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { ServiceProcess, startServiceProcess } from './support/service-process';

const PEPPER = 'two-process-pepper-0123456789abcdef0123';

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

// Two service processes on one database: a revoke through A holds on B at once (SPEC §2).
describe('revocation across instances', () => {
  let db: TestDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, API_KEY_PEPPER: PEPPER };
    a = await startServiceProcess(env);
    b = await startServiceProcess(env);
  });
  afterAll(async () => {
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
    await db.drop();
  });

  it('the very next request through B after a revoke through A is refused, and so are the next 200', async () => {
    const signUp = await fetch(`${a.baseUrl}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.test', password: 'a long password', name: 'Ops', organisationName: 'Two' }),
    });
    expect(signUp.status).toBe(201);
    const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
    const created = await fetch(`${a.baseUrl}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'agent', expiry: 'never' }),
    });
    expect(created.status).toBe(201);
    const { id, key } = (await json(created)) as { id: string; key: string };

    // Warm B's cache with the key.
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
    }

    const revoked = await fetch(`${a.baseUrl}/api/api-keys/${id}`, { method: 'DELETE', headers: { cookie } });
    expect(revoked.status).toBe(204);

    const next = await fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } });
    expect(next.status).toBe(401);
    expect(await json(next)).toMatchObject({ code: 'INVALID_API_KEY', message: 'Invalid API key.' });

    const results = await Promise.all(
      Array.from({ length: 200 }, () => fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } }).then((r) => r.status)),
    );
    expect(results.filter((s) => s !== 401)).toEqual([]);
  });

  it('a plan change through A is seen by B at once', async () => {
    const signUp = await fetch(`${a.baseUrl}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'plan@example.test', password: 'a long password', name: 'Plan', organisationName: 'P' }),
    });
    const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
    const { key } = (await json(
      await fetch(`${a.baseUrl}/api/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ name: 'agent', expiry: 'never' }),
      }),
    )) as { key: string };
    expect((await json(await fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } }))).plan).toBe('free');
    const upgraded = await fetch(`${a.baseUrl}/api/organisation/plan`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ plan: 'pro' }),
    });
    expect(upgraded.status).toBe(200);
    expect((await json(await fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } }))).plan).toBe('pro');
  });

  it('an unknown key is refused by both', async () => {
    const key = generateApiKey('ilk_');
    for (const s of [a, b]) expect((await fetch(`${s.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } })).status).toBe(401);
  });
});
