import type { Logger } from 'pino';
import type { PeriodicJob } from './periodic-jobs.worker';

/** What a retention job deletes, and how. */
export interface RetentionSpec {
  /** The job's name in `scheduled_jobs`. */
  readonly name: string;
  readonly everyMs: number;
  /** Rows deleted per statement (each its own short transaction). */
  readonly batch: number;
  /** A run stops after this many batches; the next run carries on. */
  readonly maxBatches: number;
  /** Deletes at most `limit` rows past their retention; answers how many it deleted. */
  readonly deleteBatch: (limit: number) => Promise<number>;
  /** The log line when a run deleted anything (with `{deleted}`). */
  readonly logMessage: string;
}

/**
 * A periodic clean-up: deletes what is past its retention a batch at a time, so no statement
 * holds locks or grows the WAL for long, until a batch comes back short or the run's batches
 * are spent.
 */
export class RetentionJob implements PeriodicJob {
  readonly name: string;
  readonly everyMs: number;

  constructor(
    private readonly spec: RetentionSpec,
    private readonly logger: Logger,
  ) {
    this.name = spec.name;
    this.everyMs = spec.everyMs;
  }

  async run(): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < this.spec.maxBatches; i++) {
      const batch = await this.spec.deleteBatch(this.spec.batch);
      deleted += batch;
      if (batch < this.spec.batch) break;
    }
    if (deleted > 0) this.logger.info({ deleted }, this.spec.logMessage);
    return deleted;
  }
}
