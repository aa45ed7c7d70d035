import type { Logger } from 'pino';
import { type Queryable, queryRows } from '../database/query-rows.util';
import type { PeriodicJob } from '../jobs/periodic-jobs.worker';

/** How long an `Idempotency-Key` is remembered (the service's claim reuses older rows too). */
export const IDEMPOTENCY_RETENTION_SQL = `interval '24 hours'`;

const BATCH = 1_000;
/** A run stops after this many batches; the next run carries on. */
const MAX_BATCHES = 50;

/**
 * Every 10 minutes, once across all instances (the job runner's `scheduled_jobs`): forgets the
 * keys older than the retention, of every organisation, a batch at a time so no run holds locks
 * for long. Expired keys are already ignored when claimed; this only keeps the table small.
 */
export class IdempotencySweepJob implements PeriodicJob {
  readonly name = 'idempotency-sweep';
  readonly everyMs = 10 * 60_000;

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const rows = await queryRows<unknown>(
        this.db,
        `DELETE FROM idempotency_keys WHERE (organisation_id, key) IN (
           SELECT organisation_id, key FROM idempotency_keys WHERE created_at <= now() - ${IDEMPOTENCY_RETENTION_SQL} LIMIT ${BATCH})
         RETURNING 1`,
      );
      deleted += rows.length;
      if (rows.length < BATCH) break;
    }
    if (deleted > 0) this.logger.info({ deleted }, 'expired idempotency keys forgotten');
    return deleted;
  }
}
