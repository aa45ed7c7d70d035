import { type Queryable, queryRows } from '../database/query-rows.util';

/** The age buckets of open interrupts, as the metric labels them (closed set). */
export const OPEN_AGE_BUCKETS = ['0-5m', '5m-1h', '1h-24h', '24h+'] as const;
export type OpenAgeBucket = (typeof OPEN_AGE_BUCKETS)[number];

/**
 * Open interrupts across every organisation by how long they have been open, for operations
 * (the metric `interlock_interrupts_open`). Scans the open ones; the metrics module reads it at
 * most every few seconds per instance.
 */
export async function countOpenInterruptsByAge(
  db: Queryable,
): Promise<Record<OpenAgeBucket, number>> {
  const [row] = await queryRows<Record<OpenAgeBucket, number>>(
    db,
    `SELECT count(*) FILTER (WHERE created_at > now() - interval '5 minutes')::int AS "0-5m",
            count(*) FILTER (WHERE created_at <= now() - interval '5 minutes' AND created_at > now() - interval '1 hour')::int AS "5m-1h",
            count(*) FILTER (WHERE created_at <= now() - interval '1 hour' AND created_at > now() - interval '24 hours')::int AS "1h-24h",
            count(*) FILTER (WHERE created_at <= now() - interval '24 hours')::int AS "24h+"
       FROM interrupts
      WHERE status = 'open'`,
  );
  return row;
}

/**
 * Open interrupts whose deadline has passed and that the expiry job has not closed yet (the
 * metric `interlock_interrupts_open_past_deadline`), across every organisation, through the
 * partial index `interrupts_due_idx`. Above 0 for long, the expiry job is not keeping up.
 */
export async function countOpenPastDeadline(db: Queryable): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    `SELECT count(*)::int AS count FROM interrupts WHERE status = 'open' AND expires_at IS NOT NULL AND expires_at <= now()`,
  );
  return row.count;
}
