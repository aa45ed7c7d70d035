import type { Logger } from 'pino';
import { type Queryable, queryRows } from '../database/query-rows.util';
import { deleteInBatches } from '../jobs/delete-in-batches.util';
import type { PeriodicJob } from '../jobs/periodic-jobs.worker';

const BATCH = 1_000;
/**
 * A run stops after this many batches (a million rows: more than an attack from rotating addresses
 * writes in the 5 minutes between runs); the next run carries on. Each batch is its own statement.
 */
const MAX_BATCHES = 1_000;
/** Rows are forgotten an hour after their window ended, as rate-limiter-flexible's own sweep does. */
const KEPT_AFTER_EXPIRY_MS = 60 * 60_000;

/**
 * Every 5 minutes, once across all instances (the job runner's `scheduled_jobs`): forgets the
 * throttling windows of `rate_limits` that ended more than an hour ago, a batch at a time. An
 * ended window already counts as empty; this only keeps the table small. It replaces the store's
 * own sweep, which each limiter ran on a timer of its own in every instance (a dozen DELETEs of the
 * same rows every 5 minutes per instance) and which nothing stopped when the app closed.
 */
export class RateLimitSweepJob implements PeriodicJob {
  readonly name = 'rate-limit-sweep';
  readonly everyMs = 5 * 60_000;

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async run(): Promise<number> {
    const before = this.now() - KEPT_AFTER_EXPIRY_MS;
    const deleted = await deleteInBatches(
      async () =>
        (
          await queryRows<unknown>(
            this.db,
            // The outer test again: a window renewed while this statement waited for its row is kept.
            `DELETE FROM rate_limits WHERE key IN (
               SELECT key FROM rate_limits WHERE expire < $1 LIMIT $2) AND expire < $1
             RETURNING 1`,
            [before, BATCH],
          )
        ).length,
      BATCH,
      MAX_BATCHES,
    );
    if (deleted > 0) this.logger.info({ deleted }, 'ended throttling windows forgotten');
    return deleted;
  }
}
