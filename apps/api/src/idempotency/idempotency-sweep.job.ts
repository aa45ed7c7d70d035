import type { Logger } from 'pino';
import type { Queryable } from '../database/query-rows.util';
import { deleteInBatches } from '../jobs/delete-in-batches.util';
import type { PeriodicJob } from '../jobs/periodic-jobs.worker';
import type { IdempotencyRepository } from './idempotency.repository';

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
    private readonly keys: IdempotencyRepository,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<number> {
    const deleted = await deleteInBatches(
      () => this.keys.deleteExpired(this.db, BATCH),
      BATCH,
      MAX_BATCHES,
    );
    if (deleted > 0) this.logger.info({ deleted }, 'expired idempotency keys forgotten');
    return deleted;
  }
}
