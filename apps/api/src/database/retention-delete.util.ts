import { type Queryable, queryRows } from './query-rows.util';

/**
 * Deletes at most `limit` rows of `table`, across organisations, whose `created_at` is longer ago
 * than `retentionMs`, found by their primary key `key`; answers how many it deleted. For the
 * retention jobs (jobs/retention.job.ts), whose tables carry a `created_at` index (BRIN).
 * `table` and `key` are the caller's constants, never input.
 */
export async function deleteRowsOlderThan(
  db: Queryable,
  table: string,
  key: readonly string[],
  retentionMs: number,
  limit: number,
): Promise<number> {
  const columns = key.join(', ');
  const [row] = await queryRows<{ deleted: number }>(
    db,
    `WITH gone AS (
       DELETE FROM ${table} WHERE (${columns}) IN (
         SELECT ${columns} FROM ${table}
          WHERE created_at < now() - $1::bigint * interval '1 millisecond'
          LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
    [retentionMs, limit],
  );
  return row.deleted;
}
