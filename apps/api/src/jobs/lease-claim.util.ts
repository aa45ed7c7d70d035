/** An outbox table whose rows are claimed as leases, one row a message (`leaseClaimStatement`). */
export interface LeasedOutbox {
  readonly table: string;
  /** The row's key columns. */
  readonly key: readonly string[];
  /** The status of a claimed row; a row waits as `pending`. */
  readonly leased: string;
  /** More assignments made on the claim, of the row as `r` (`last_attempt_at = now()`). */
  readonly alsoSet?: string;
  /** A table the claim reads beside the row, with its join condition on `r`. */
  readonly join?: { readonly table: string; readonly on: string };
  /** What the claim answers, of `r` (and of the joined table). */
  readonly returning: string;
}

/**
 * The statement that claims an outbox's due rows ($1 at the most, the longest due first) as
 * leases: FOR UPDATE SKIP LOCKED, so of several instances exactly one takes each; a claimed row
 * turns `leased`, its attempt is counted, and its `due_at` becomes the lease's end ($2
 * milliseconds on), so it is due again if the instance dies before it records the attempt. What
 * an attempt records stays the outbox's own statement. Used by the resumeUrl and Slack outboxes.
 */
export function leaseClaimStatement(outbox: LeasedOutbox): string {
  const { table, key, leased, alsoSet, join, returning } = outbox;
  const keyed = key.map((column) => `r.${column} = due.${column}`).join(' AND ');
  return `
WITH due AS (
  SELECT ${key.join(', ')} FROM ${table}
   WHERE status IN ('pending', '${leased}') AND due_at <= now()
   ORDER BY due_at
   LIMIT $1
   FOR UPDATE SKIP LOCKED
)
UPDATE ${table} r
   SET status = '${leased}', attempt_count = r.attempt_count + 1,
       due_at = now() + $2::int * interval '1 millisecond'${alsoSet === undefined ? '' : `, ${alsoSet}`}
  FROM due${join === undefined ? '' : `, ${join.table}`}
 WHERE ${keyed}${join === undefined ? '' : ` AND ${join.on}`}
RETURNING ${returning}`;
}
