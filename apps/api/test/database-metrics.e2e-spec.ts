import { join } from 'node:path';
import type { Pool, PoolClient, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { instrumentDatabase } from '../src/metrics/database-metrics';
import { Metrics } from '../src/metrics/metrics';
import { promotedInFreshProcesses } from '../src/testing/promotion-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

// The time of every statement on the data source's pool, by kind (metrics/database-metrics.ts),
// on a real Postgres: the three ways pg runs a statement, errors, and what the timing keeps alive.
describe('database metrics on Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let pool: Pool;
  let metrics: Metrics;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 8 });
    await ds.initialize();
    pool = (ds.driver as unknown as { master: Pool }).master;
    metrics = new Metrics();
    instrumentDatabase(ds, metrics);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /** The histogram's count and sum for one kind of statement (absent: 0). */
  async function timed(statement: string): Promise<{ count: number; sum: number }> {
    const { values } = await metrics.dbQueryDuration.get();
    const of = (suffix: string) =>
      values.find((v) => v.metricName?.endsWith(suffix) && v.labels.statement === statement)
        ?.value ?? 0;
    return { count: of('_count'), sum: of('_sum') };
  }

  it('times a statement run with a callback (pg-pool), and gives the caller what pg gives', async () => {
    const before = await timed('select');
    const result = await pool.query<{ n: number }>('SELECT $1::int AS n', [7]);
    expect(result.rows).toEqual([{ n: 7 }]);
    expect(result.rowCount).toBe(1);
    const after = await timed('select');
    expect(after.count).toBe(before.count + 1);
    expect(after.sum).toBeGreaterThan(before.sum);
  });

  it("answers a callback call as pg does (undefined), and calls the caller's callback once", async () => {
    const client: PoolClient = await pool.connect();
    try {
      const before = await timed('with');
      let calls = 0;
      const answer = await new Promise<QueryResult>((resolve, reject) => {
        const returned = client.query(
          'WITH x AS (SELECT 1 AS one) SELECT one FROM x',
          (err, res) => {
            calls++;
            if (err) reject(err);
            else resolve(res);
          },
        );
        expect(returned).toBeUndefined();
      });
      expect(answer.rows).toEqual([{ one: 1 }]);
      expect(calls).toBe(1);
      expect((await timed('with')).count).toBe(before.count + 1);
    } finally {
      client.release();
    }
  });

  it('times a statement run as a promise, and a transaction statement by its kind', async () => {
    const client = await pool.connect();
    try {
      const select = (await timed('select')).count;
      const transaction = (await timed('transaction')).count;
      await client.query('BEGIN');
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.query('ROLLBACK');
      expect((await timed('select')).count).toBe(select + 1);
      expect((await timed('transaction')).count).toBe(transaction + 2);
    } finally {
      client.release();
    }
  });

  it("times a statement that fails, once, and passes pg's error on unchanged", async () => {
    const before = await timed('select');
    const failed = await pool.query('SELECT no_such_column FROM pg_class').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toMatchObject({ code: '42703' });
    expect((failed as Error).message).toBe('column "no_such_column" does not exist');
    expect((await timed('select')).count).toBe(before.count + 1);
    // The connection is fine after it.
    expect((await pool.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  it("keeps a callback statement's own query_timeout: pg ends it with its read timeout, timed once", async () => {
    const before = await timed('select');
    // pg-pool's pool.query hands its client the config with a callback of its own. The
    // statement lasts 2 s, twenty times its timeout.
    const config = { text: 'SELECT pg_sleep(2)', query_timeout: 100 };
    const failed = await pool.query(config).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failed as Error | undefined)?.message).toBe('Query read timeout');
    expect((await timed('select')).count).toBe(before.count + 1);
  });

  it("keeps no statement's rows past its answer (issue 28: results are not promoted)", async () => {
    // Measured in fresh processes (support/statement-promotion.ts), not in this reused worker.
    const promoted = await promotedInFreshProcesses(
      join(__dirname, 'support', 'statement-promotion.ts'),
      db.url,
    );
    expect(promoted.withControl).toBeGreaterThan(4);
    expect(promoted.without).toBeLessThan(1);
  }, 120_000);
});
