import { DomainError } from '@interlock/domain';
import { Injectable } from '@nestjs/common';
import type { Queryable } from '../database/query-rows.util';
import { IdempotencyRepository } from './idempotency.repository';

/** An `Idempotency-Key` on a request, with what the request was (see `requestFingerprint`). */
export interface IdempotentRequest {
  organisationId: string;
  key: string;
  fingerprint: string;
}

export interface IdempotentResult<T> {
  value: T;
  /** True when `value` is the stored first response, replayed without a second write. */
  replayed: boolean;
}

/**
 * Safe retries of POSTs (beyond the seed): the same `Idempotency-Key` within 24 hours returns
 * the first response without a second write; with a different request it answers 409.
 *
 * The key is claimed by inserting its row first thing in the write's own transaction. A
 * concurrent request with the same key blocks on that row's unique index until the first
 * transaction ends: if it committed, the second finds the stored response and replays it; if it
 * rolled back (an error response), the second claims the key and does the work itself. Only
 * successful responses are stored, so a request refused (say 402) can be retried with its key.
 * Expired keys are forgotten by a periodic job (`IdempotencySweepJob`) on the job runner. The
 * rules are here; the table is `IdempotencyRepository`'s.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyRepository) {}

  /**
   * Runs `work` once per key, inside the caller's transaction `tx`, storing its result as the
   * response (status `status`). Without a key, simply runs `work`.
   */
  async once<T>(
    tx: Queryable,
    request: IdempotentRequest | undefined,
    status: number,
    work: () => Promise<T>,
  ): Promise<IdempotentResult<T>> {
    if (request === undefined) return { value: await work(), replayed: false };
    const stored = await this.claim(tx, request);
    if (stored !== undefined) {
      if (stored.status !== status)
        throw new Error(`idempotency key stored with status ${stored.status}, expected ${status}`);
      return { value: JSON.parse(stored.body) as T, replayed: true };
    }
    const value = await work();
    await this.keys.complete(
      tx,
      request.organisationId,
      request.key,
      status,
      JSON.stringify(value),
    );
    return { value, replayed: false };
  }

  /** Claims the key (undefined), or returns the response stored under it. */
  private async claim(
    tx: Queryable,
    request: IdempotentRequest,
  ): Promise<{ status: number; body: string } | undefined> {
    if (await this.keys.claim(tx, request.organisationId, request.key, request.fingerprint))
      return undefined;
    // The key is held by a committed request of the last 24 hours (the claim waited for it).
    const row = await this.keys.read(tx, request.organisationId, request.key);
    if (row === undefined || row.response_status === null || row.response_body === null) {
      // Swept between the two statements: a conflict with nothing to replay, safe to retry.
      throw new DomainError(
        'CONFLICT',
        'A request with this Idempotency-Key is in progress; retry it.',
        {
          'x-should-retry': 'true',
        },
      );
    }
    if (row.fingerprint !== request.fingerprint) {
      throw new DomainError(
        'CONFLICT',
        'This Idempotency-Key was already used with a different request.',
      );
    }
    return { status: row.response_status, body: row.response_body };
  }
}
