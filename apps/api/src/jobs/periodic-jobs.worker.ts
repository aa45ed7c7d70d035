import type { Logger } from 'pino';
import { type Queryable, queryRows } from '../database/query-rows.util';
import type { JobWorker } from './job-runner';
import {
  periodicJobRunChannel,
  type PeriodicJobRunRecord,
} from '../metrics/instrumentation-channels';
import { inSpan } from '../tracing/spans';

/** Work to do every `everyMs` — once across all instances, not once per instance. */
export interface PeriodicJob {
  /** Stable: the row of `scheduled_jobs` that records when the job runs next. */
  readonly name: string;
  readonly everyMs: number;
  run(): Promise<unknown>;
}

/**
 * Runs periodic jobs through the `scheduled_jobs` table. A round claims one due job by moving
 * its next run on, in one statement (`FOR UPDATE SKIP LOCKED`, so of several instances exactly
 * one claims it), then runs it. A run that fails or whose instance dies is not retried before
 * its next period: periodic jobs are idempotent clean-ups that the next run catches up on.
 */
export class PeriodicJobsWorker implements JobWorker {
  readonly name = 'periodic-jobs';
  private readonly jobs = new Map<string, PeriodicJob>();
  private seeded = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    readonly idleMs = 5_000,
  ) {}

  add(job: PeriodicJob): void {
    if (this.jobs.has(job.name)) throw new Error(`periodic job ${job.name} is added twice`);
    this.jobs.set(job.name, job);
    this.seeded = false;
  }

  async poll(): Promise<boolean> {
    if (this.jobs.size === 0) return false;
    if (!this.seeded) {
      // A job's first run is one period after the first instance that knows it started.
      const jobs = [...this.jobs.values()];
      await this.db.query(
        `INSERT INTO scheduled_jobs (name, next_run_at)
         SELECT j.name, now() + j.every_ms * interval '1 millisecond' FROM unnest($1::text[], $2::bigint[]) AS j(name, every_ms)
         ON CONFLICT (name) DO NOTHING`,
        [jobs.map((j) => j.name), jobs.map((j) => j.everyMs)],
      );
      this.seeded = true;
    }
    const names = [...this.jobs.keys()];
    const [claimed] = await queryRows<{ name: string }>(
      this.db,
      `UPDATE scheduled_jobs s SET next_run_at = now() + c.every_ms * interval '1 millisecond', last_started_at = now()
         FROM (SELECT s2.name, j.every_ms
                 FROM scheduled_jobs s2 JOIN unnest($1::text[], $2::bigint[]) AS j(name, every_ms) ON j.name = s2.name
                WHERE s2.next_run_at <= now()
                ORDER BY s2.next_run_at
                LIMIT 1
                FOR UPDATE OF s2 SKIP LOCKED) c
        WHERE s.name = c.name
        RETURNING s.name`,
      [names, names.map((n) => (this.jobs.get(n) as PeriodicJob).everyMs)],
    );
    if (claimed === undefined) return false;
    const job = this.jobs.get(claimed.name) as PeriodicJob;
    const started = performance.now();
    const report = (result: PeriodicJobRunRecord['result']) => {
      if (periodicJobRunChannel.hasSubscribers) {
        periodicJobRunChannel.publish({
          job: job.name,
          result,
          durationMs: performance.now() - started,
        } satisfies PeriodicJobRunRecord);
      }
    };
    // One span per run (traces on): its statements are its children, its log lines carry its trace id.
    this.running = inSpan(
      `job ${job.name}`,
      { attributes: { 'interlock.job': job.name } },
      async () => {
        try {
          await job.run();
          report('ok');
        } catch (error) {
          this.logger.error({ err: error, job: job.name }, 'periodic job failed');
          report('failed');
          throw error;
        }
      },
    ).catch(() => undefined);
    await this.running;
    this.running = undefined;
    return true;
  }

  async drain(): Promise<void> {
    await this.running;
  }
}
