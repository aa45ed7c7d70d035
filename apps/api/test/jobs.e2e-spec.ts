import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { IdempotencySweepJob } from '../src/idempotency/idempotency-sweep.job';
import { IdempotencyRepository } from '../src/idempotency/idempotency.repository';
import { PeriodicJobsWorker } from '../src/jobs/periodic-jobs.worker';
import { RateLimitSweepJob } from '../src/rate-limits/rate-limit-sweep.job';
import { signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as Logger;

// The periodic work of the service runs on the job runner's `scheduled_jobs`: once per period
// across every instance, on real Postgres.
describe('periodic jobs on the job runner', () => {
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    ds = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['idempotency-sweep', 'rate-limit-sweep'])(
    'registers the %s with the app’s runner',
    async (job) => {
      // Up to 30 s: the runner's first round can come late on a loaded machine.
      for (let i = 0; i < 1_200; i++) {
        const rows = await ds.query(`SELECT name FROM scheduled_jobs WHERE name = $1`, [job]);
        if (rows.length === 1) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`${job} was never scheduled`);
    },
  );

  it('runs a due job on exactly one of several instances, then not again before its period', async () => {
    const name = `test-once-${randomUUID()}`;
    let runs = 0;
    const instances = Array.from({ length: 4 }, () => {
      const worker = new PeriodicJobsWorker(ds, logger);
      worker.add({ name, everyMs: 60_000, run: async () => void runs++ });
      return worker;
    });
    // First rounds seed the schedule: the job is first due one period later.
    expect(await Promise.all(instances.map((w) => w.poll()))).toEqual([false, false, false, false]);
    expect(runs).toBe(0);
    for (let round = 1; round <= 3; round++) {
      await ds.query(
        `UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = $1`,
        [name],
      );
      const claimed = await Promise.all(instances.map((w) => w.poll()));
      expect(claimed.filter(Boolean)).toHaveLength(1);
      expect(runs).toBe(round);
      expect(await Promise.all(instances.map((w) => w.poll()))).toEqual([
        false,
        false,
        false,
        false,
      ]);
    }
    await ds.query(`DELETE FROM scheduled_jobs WHERE name = $1`, [name]);
  });

  it('the idempotency sweep forgets the expired keys of every organisation and keeps the rest', async () => {
    const server = t.app.getHttpServer();
    const orgs = [
      (await signUpOwner(server)).organisationId,
      (await signUpOwner(server)).organisationId,
    ];
    for (const org of orgs) {
      await ds.query(
        `INSERT INTO idempotency_keys (organisation_id, key, fingerprint, created_at) VALUES
           ($1, 'old', 'f', now() - interval '24 hours 1 second'), ($1, 'fresh', 'f', now() - interval '23 hours')`,
        [org],
      );
    }
    expect(await new IdempotencySweepJob(ds, new IdempotencyRepository(), logger).run()).toBe(2);
    const left = await ds.query(
      `SELECT organisation_id, key FROM idempotency_keys WHERE organisation_id = ANY($1) ORDER BY key`,
      [orgs],
    );
    expect(left.map((r: { key: string }) => r.key)).toEqual(['fresh', 'fresh']);
  });

  it('the rate-limit sweep forgets the windows that ended over an hour ago and keeps the rest', async () => {
    const now = Date.now();
    const prefix = `sweep-${randomUUID()}`;
    await ds.query(
      `INSERT INTO rate_limits (key, points, expire) VALUES
         ($1 || ':ended', 3, $2), ($1 || ':just-ended', 3, $3), ($1 || ':open', 3, $4), ($1 || ':no-end', 3, NULL)`,
      [prefix, now - 60 * 60_000 - 1_000, now - 60 * 60_000 + 60_000, now + 60_000],
    );
    expect(await new RateLimitSweepJob(ds, logger, () => now).run()).toBeGreaterThanOrEqual(1);
    const left = await ds.query(
      `SELECT key FROM rate_limits WHERE key LIKE $1 || ':%' ORDER BY key`,
      [prefix],
    );
    expect(left.map((r: { key: string }) => r.key.slice(prefix.length + 1))).toEqual([
      'just-ended',
      'no-end',
      'open',
    ]);
  });
});
