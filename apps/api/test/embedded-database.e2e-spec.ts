import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServiceToExit, startServiceProcess } from './support/service-process';

// `npm start` without DATABASE_URL: the service runs on the embedded Postgres (PGlite) under
// DATA_DIR. These tests run the built service as a real process.
describe('the embedded database', () => {
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

      const second = await runServiceToExit({ DATA_DIR: dataDir });
      expect(second.code).not.toBe(0);
      expect(second.output).toContain(`The embedded database in ${dataDir} is already open in another process`);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(first.output()).toContain('"msg":"stopped"');
    expect(existsSync(join(dataDir, 'embedded-postgres.lock'))).toBe(false);

    // A restart opens the same files: the migrations are already applied there.
    const again = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      expect((await fetch(`${again.baseUrl}/health/ready`)).status).toBe(200);
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
