import { type Queryable, queryRows } from '../database/query-rows.util';

/**
 * How far past its due time each periodic job is, in seconds (0 when not yet due), across the
 * instances (operations: the metrics' `interlock_job_lag_seconds`). One small table's rows.
 */
export function readPeriodicJobLag(
  db: Queryable,
): Promise<{ name: string; lag_seconds: number }[]> {
  return queryRows(
    db,
    `SELECT name, greatest(0, extract(epoch FROM now() - next_run_at))::float8 AS lag_seconds FROM scheduled_jobs`,
  );
}
