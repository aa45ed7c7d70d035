import { type Queryable, queryRows } from '../database/query-rows.util';

export interface NotificationOutboxStats {
  /** Pending, due now. */
  due: number;
  /** Pending, due later: a retry's wait, or a digest's hour. */
  scheduled: number;
  /** Claimed by a delivery worker (its lease runs to `due_at`). */
  sending: number;
  /** How long the longest-waiting due notification has been due, in seconds (0 when none is). */
  oldest_due_seconds: number;
}

/**
 * The notification outbox across every organisation, for operations (the metrics' depth and
 * oldest due age): unfinished notifications only, through the partial due index.
 */
export async function readNotificationOutboxStats(db: Queryable): Promise<NotificationOutboxStats> {
  const [row] = await queryRows<NotificationOutboxStats>(
    db,
    `SELECT count(*) FILTER (WHERE status = 'pending' AND due_at <= now())::int AS due,
            count(*) FILTER (WHERE status = 'pending' AND due_at > now())::int AS scheduled,
            count(*) FILTER (WHERE status = 'sending')::int AS sending,
            coalesce(extract(epoch FROM now() - min(due_at) FILTER (WHERE status = 'pending' AND due_at <= now())), 0)::float8
              AS oldest_due_seconds
       FROM notifications
      WHERE status IN ('pending', 'sending')`,
  );
  return row;
}
