import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServiceToExit, startServiceProcess } from './support/service-process';

// `npm start` without DATABASE_URL: the service runs on the embedded Postgres (PGlite) under
// DATA_DIR. These tests run the built service as a real process.
describe('the embedded database', () => {
  // Each start boots Postgres in WebAssembly and applies every migration: seconds alone, but
  // well over a minute on a loaded machine. A functional bound, not a performance one.
  jest.setTimeout(480_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'interlock-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('migrates, serves, refuses a second opener, stops cleanly on SIGTERM and keeps its data', async () => {
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      const ready = await fetch(`${first.baseUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok' });
      const missing = await fetch(`${first.baseUrl}/api/nowhere`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
      expect(first.output()).toContain('"database":"embedded');

      // A real round trip through the embedded Postgres: sign-up, a key, the audit log.
      const json = { 'content-type': 'application/json' };
      const signUp = await fetch(`${first.baseUrl}/api/auth/sign-up`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          email: 'embedded@example.test',
          password: 'embedded password',
          name: 'Em',
          organisationName: 'Embedded',
        }),
      });
      expect(signUp.status).toBe(201);
      const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
      const plan = await fetch(`${first.baseUrl}/api/organisation/plan`, {
        method: 'PUT',
        headers: { ...json, cookie },
        body: '{"plan":"pro"}',
      });
      expect(plan.status).toBe(200);
      const created = await fetch(`${first.baseUrl}/api/api-keys`, {
        method: 'POST',
        headers: { ...json, cookie },
        body: JSON.stringify({ name: 'embedded-key', expiry: 'never' }),
      });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };
      const audit = await fetch(`${first.baseUrl}/api/audit-log?q=embedded%20key`, {
        headers: { 'x-api-key': key },
      });
      expect(audit.status).toBe(200);
      const { entries } = (await audit.json()) as { entries: { action: string }[] };
      expect(entries.map((e) => e.action)).toEqual(['api_key.created']);

      const second = await runServiceToExit({ DATA_DIR: dataDir });
      expect(second.code).not.toBe(0);
      expect(second.output).toContain(
        `The embedded database in ${dataDir} is already open in another process`,
      );
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(first.output()).toContain('"msg":"stopped"');
    expect(existsSync(join(dataDir, 'embedded-postgres.lock'))).toBe(false);

    // A restart opens the same files: the migrations are applied and the data is there.
    const again = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      expect((await fetch(`${again.baseUrl}/health/ready`)).status).toBe(200);
      const signIn = await fetch(`${again.baseUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'embedded@example.test', password: 'embedded password' }),
      });
      expect(signIn.status).toBe(200);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });

  it('takes over a stale lock left by a crashed process', async () => {
    const crashed = await startServiceProcess({ DATA_DIR: dataDir });
    crashed.child.kill('SIGKILL');
    await new Promise((resolve) => crashed.child.once('exit', resolve));
    expect(existsSync(join(dataDir, 'embedded-postgres.lock'))).toBe(true);

    const next = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      expect((await fetch(`${next.baseUrl}/health/ready`)).status).toBe(200);
    } finally {
      expect(await next.stop()).toBe(0);
    }
  });
});

describe('configuration errors', () => {
  it('stop the start with a message naming the variable', async () => {
    const result = await runServiceToExit({ PORT: 'eighty', NODE_ENV: 'production' });
    expect(result.code).toBe(78);
    expect(result.output).toContain('PORT must be a whole number');
    expect(result.output).toContain('API_KEY_PEPPER is required when NODE_ENV=production');
  });
});
