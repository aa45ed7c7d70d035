import type { Pool } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PreparedReads } from '../src/database/prepared-reads';
import { openInterrupt, SignedUpOwner, signUpProWithKey } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** How often one named statement ran between two looks, and its text. */
interface Grown {
  text: string;
  runs: number;
}

// Issue 28 §2, "never silently off": the hot reads — an interrupt by id, an audit page, an
// inbox page — and opening an interrupt run as named prepared statements on the service's own
// pool (database/prepared-reads.ts), seen from Postgres: each of the pool's sessions lists the
// statements prepared on it and how often each ran (pg_prepared_statements). A read that fell
// back to an unnamed statement would leave no count there. Run on both adapters
// (jest.e2e-express.config.cjs).
describe('named prepared statements on the hot reads (as Postgres sees them)', () => {
  let t: TestApp;
  let org: SignedUpOwner;
  let key: string;
  let interruptId: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, key } = await signUpProWithKey(
      t.app.getHttpServer(),
      { organisationName: 'Named Statements' },
      'named-statements',
    ));
    for (let i = 0; i < 3; i++)
      interruptId = (await openInterrupt(t.app.getHttpServer(), key, { title: `Deploy ${i}` })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Executions of each named statement (`interlock_…`) summed over every session of the service's
   * pool, by text: all of the pool's connections are held while they are read, so none is missed
   * (connections the pool opens for it have none).
   */
  async function namedRuns(): Promise<Map<string, number>> {
    const pool = (t.app.get(DataSource).driver as unknown as { master: Pool }).master;
    const clients = await Promise.all(
      Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()),
    );
    const runs = new Map<string, number>();
    try {
      for (const client of clients) {
        const { rows } = await client.query<{ statement: string; runs: string }>(
          `SELECT statement, (generic_plans + custom_plans)::text AS runs
             FROM pg_prepared_statements WHERE name LIKE 'interlock\\_%'`,
        );
        for (const row of rows)
          runs.set(row.statement, (runs.get(row.statement) ?? 0) + Number(row.runs));
      }
    } finally {
      for (const client of clients) client.release();
    }
    return runs;
  }

  /** The named statements that ran while `act` did, with how often. */
  async function grownDuring(act: () => Promise<void>): Promise<Grown[]> {
    const before = await namedRuns();
    await act();
    const after = await namedRuns();
    return [...after]
      .map(([text, runs]) => ({ text, runs: runs - (before.get(text) ?? 0) }))
      .filter((g) => g.runs > 0);
  }

  /** `times` requests, each answering `status`. */
  async function requests(times: number, send: () => request.Test, status = 200): Promise<void> {
    for (let i = 0; i < times; i++) {
      const res = await send();
      expect({ status: res.status, body: res.status === status ? null : res.body }).toEqual({
        status,
        body: null,
      });
    }
  }

  it('starts with them on, and says so', () => {
    expect(t.logs.map((l) => l.msg)).toContain('named prepared statements: on');
    expect(t.app.get(PreparedReads).prepared).toBe(true);
  });

  it('reads an interrupt by id as a named statement, once a request', async () => {
    const grown = await grownDuring(() =>
      requests(3, () => http().get(`/api/interrupts/${interruptId}`).set('x-api-key', key)),
    );
    expect(grown).toContainEqual({
      text: expect.stringMatching(
        /\bFROM interrupts i WHERE i\.organisation_id = \$1 AND i\.id = \$2\b/,
      ),
      runs: 3,
    });
  });

  it('reads an audit page as a named statement, once a request', async () => {
    const grown = await grownDuring(() =>
      requests(3, () => http().get('/api/audit-log?limit=50').set('x-api-key', key)),
    );
    expect(grown).toContainEqual({
      text: expect.stringMatching(/\bFROM audit_log_entries\b/),
      runs: 3,
    });
  });

  it("reads the inbox's page as a named statement, once a request", async () => {
    const grown = await grownDuring(() =>
      requests(3, () => http().get('/api/interrupts?status=open').set('cookie', org.cookie)),
    );
    expect(grown).toContainEqual({
      text: expect.stringMatching(/\bFROM interrupts\b[\s\S]*\bLIMIT\b/),
      runs: 3,
    });
  });

  it("opens an interrupt with its transaction's statements named, none falling back", async () => {
    const reads = t.app.get(PreparedReads);
    const fallbacks = reads.fallbacks;
    const grown = await grownDuring(async () => {
      for (let i = 0; i < 2; i++)
        await openInterrupt(t.app.getHttpServer(), key, { title: `Release ${i}` });
    });
    expect(grown).toContainEqual({
      text: expect.stringMatching(/^INSERT INTO interrupts\b/),
      runs: 2,
    });
    expect(reads.fallbacks).toBe(fallbacks);
    expect(reads.fallbacks).toBe(0);
  });
});
