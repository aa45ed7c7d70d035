import { type Queryable, queryRows } from '../database/query-rows.util';

/** An outbox's unfinished rows, for operations (the metrics' depth and oldest due age). */
export interface OutboxDepth {
  /** Pending, due now. */
  due: number;
  /** Pending, due later (a retry's wait, a digest's hour). */
  scheduled: number;
  /** How long the longest-waiting due row has been due, in seconds (0 when none is). */
  oldest_due_seconds: number;
}

/** The counts `readOutboxDepth` answers: the claimed rows under their state's name, `paused` if asked. */
export type OutboxReading<Claimed extends string, Paused extends boolean> = OutboxDepth &
  Record<Claimed, number> &
  (Paused extends true ? { paused: number } : unknown);

/**
 * Reads an outbox table's depth across every organisation through its partial due index
 * (unfinished rows only): `due`, `scheduled`, the rows a worker has claimed (`claimed`, the
 * table's own state name) and, with `paused`, the pending rows without a due time. The outbox's
 * owner calls it with its table (names from code, never from input).
 */
export async function readOutboxDepth<Claimed extends string, Paused extends boolean = false>(
  db: Queryable,
  table: string,
  claimed: Claimed,
  paused?: Paused,
): Promise<OutboxReading<Claimed, Paused>> {
  const [row] = await queryRows<OutboxReading<Claimed, Paused>>(
    db,
    `SELECT count(*) FILTER (WHERE status = 'pending' AND due_at <= now())::int AS due,
            count(*) FILTER (WHERE status = 'pending' AND due_at > now())::int AS scheduled,
            count(*) FILTER (WHERE status = '${claimed}')::int AS "${claimed}",
            ${paused === true ? `count(*) FILTER (WHERE status = 'pending' AND due_at IS NULL)::int AS paused,` : ''}
            coalesce(extract(epoch FROM now() - min(due_at) FILTER (WHERE status = 'pending' AND due_at <= now())), 0)::float8
              AS oldest_due_seconds
       FROM ${table}
      WHERE status IN ('pending', '${claimed}')`,
  );
  return row;
}
