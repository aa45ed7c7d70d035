import { type Queryable, queryRows } from '../database/query-rows.util';

export interface OutboxStats {
  /** Pending, due now. */
  due: number;
  /** Pending, due later (a retry's wait). */
  scheduled: number;
  delivering: number;
  /** Pending without a due time: their webhook is disabled. */
  paused: number;
  /** How long the longest-waiting due delivery has been due, in seconds (0 when none is). */
  oldest_due_seconds: number;
}

/**
 * The outbox across every organisation, for operations (the metrics' depth and oldest due age):
 * unfinished deliveries only, through the partial due index.
 */
export async function readOutboxStats(db: Queryable): Promise<OutboxStats> {
  const [row] = await queryRows<OutboxStats>(
    db,
    `SELECT count(*) FILTER (WHERE status = 'pending' AND due_at <= now())::int AS due,
            count(*) FILTER (WHERE status = 'pending' AND due_at > now())::int AS scheduled,
            count(*) FILTER (WHERE status = 'delivering')::int AS delivering,
            count(*) FILTER (WHERE status = 'pending' AND due_at IS NULL)::int AS paused,
            coalesce(extract(epoch FROM now() - min(due_at) FILTER (WHERE status = 'pending' AND due_at <= now())), 0)::float8
              AS oldest_due_seconds
       FROM webhook_deliveries
      WHERE status IN ('pending', 'delivering')`,
  );
  return row;
}
