import { Injectable } from '@nestjs/common';
import { type Queryable, queryRows } from '../database/query-rows.util';

/** How long an `Idempotency-Key` is remembered: the claim reuses older rows, the sweep deletes them. */
const RETENTION = `interval '24 hours'`;

/** A key held by a committed request of the retention period, with the response stored under it. */
export interface StoredIdempotencyKey {
  fingerprint: string;
  response_status: number | null;
  response_body: string | null;
}

/**
 * The `idempotency_keys` table's one owner. Every method takes the handle to run on — the
 * transaction of the write the key guards (claim, read, complete), or the data source for the
 * sweep — and, but for the sweep over every organisation, the organisation first.
 */
@Injectable()
export class IdempotencyRepository {
  /**
   * Claims the key for this request: true when it was free (never used, or used longer ago than
   * the retention); false when a committed request of the retention period holds it. A concurrent
   * claim of the same key waits here on the unique index until the holder's transaction ends.
   */
  async claim(
    db: Queryable,
    organisationId: string,
    key: string,
    fingerprint: string,
  ): Promise<boolean> {
    const claimed = await queryRows<{ key: string }>(
      db,
      `INSERT INTO idempotency_keys AS k (organisation_id, key, fingerprint) VALUES ($1, $2, $3)
       ON CONFLICT (organisation_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, response_status = NULL, response_body = NULL, created_at = now()
         WHERE k.created_at <= now() - ${RETENTION}
       RETURNING k.key`,
      [organisationId, key, fingerprint],
    );
    return claimed.length > 0;
  }

  /** The key's row, or undefined when it is gone (swept). */
  async read(
    db: Queryable,
    organisationId: string,
    key: string,
  ): Promise<StoredIdempotencyKey | undefined> {
    const [row] = await queryRows<StoredIdempotencyKey>(
      db,
      `SELECT fingerprint, response_status, response_body FROM idempotency_keys WHERE organisation_id = $1 AND key = $2`,
      [organisationId, key],
    );
    return row;
  }

  /** Stores the response to replay under a key this transaction claimed. */
  async complete(
    db: Queryable,
    organisationId: string,
    key: string,
    status: number,
    body: string,
  ): Promise<void> {
    await db.query(
      `UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE organisation_id = $1 AND key = $2`,
      [organisationId, key, status, body],
    );
  }

  /** Deletes up to `batch` keys older than the retention, of every organisation; how many. */
  async deleteExpired(db: Queryable, batch: number): Promise<number> {
    const rows = await queryRows<unknown>(
      db,
      `DELETE FROM idempotency_keys WHERE (organisation_id, key) IN (
         SELECT organisation_id, key FROM idempotency_keys WHERE created_at <= now() - ${RETENTION} LIMIT $1)
       RETURNING 1`,
      [batch],
    );
    return rows.length;
  }
}
