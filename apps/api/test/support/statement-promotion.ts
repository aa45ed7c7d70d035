import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { instrumentDatabase } from '../../src/metrics/database-metrics';
import { Metrics } from '../../src/metrics/metrics';
import type { PromotionWork } from '../../src/testing/promotion-process';

/**
 * database-metrics.e2e-spec's promotion work, in a process of its own (`promotedInFreshProcesses`):
 * 400 statements on a pool of 8 timed by `instrumentDatabase` on the database at `url`, each answer
 * 50 rows of ~110 characters (~9 KB of small objects), so little is in flight at a scavenge and what
 * keeps a finished answer alive shows. The pool is pg's, as TypeORM's data source holds it (its
 * `driver.master`, all `instrumentDatabase` reads of the data source).
 */
export async function setUpPromotionWork(url: string): Promise<PromotionWork> {
  const pool = new Pool({ connectionString: url, max: 8 });
  instrumentDatabase({ driver: { master: pool } } as unknown as DataSource, new Metrics());
  const text = `SELECT g AS i, repeat('x', 100) || g AS t FROM generate_series(1, 50) g`;
  // The control: each answer kept in a process-long Map set and deleted per statement (the
  // drain's promotion, BENCHMARKS issue 28 session 21 (promote)).
  const kept = new Map<number, unknown>();
  let keepInOldMap = false;
  let next = 0;
  const statement = async () => {
    const { rows } = await pool.query(text);
    if (rows.length !== 50) throw new Error(`${rows.length} rows`);
    if (!keepInOldMap) return;
    const id = next++;
    kept.set(id, rows);
    await new Promise((resolve) => setImmediate(resolve));
    kept.delete(id);
  };
  return {
    // 8 callers (the pool's size) of 50 statements each, one after the other, so none waits in
    // pg-pool's queue.
    work: () =>
      Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = 0; i < 50; i++) await statement();
        }),
      ),
    control: (on) => (keepInOldMap = on),
    close: () => pool.end(),
  };
}
