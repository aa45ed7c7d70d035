import type { Logger } from 'pino';
import type { Queryable } from '../database/query-rows.util';
import type { PeriodicJob } from '../jobs/periodic-jobs.worker';
import type { SessionsRepository } from './sessions.repository';

const BATCH = 2_000;
/** A run stops after this many batches (200,000 messages); the next run carries on. */
const MAX_BATCHES = 100;

/**
 * Every 15 minutes, once across all instances (the job runner's `scheduled_jobs`): deletes the
 * session messages of every organisation appended longer ago than the retention
 * (`SESSION_MESSAGE_RETENTION`, 90 days by default; SPEC §8), a batch at a time, each batch its
 * own short transaction. The deletions free the organisations' storage quota (a trigger
 * subtracts their bytes). Sessions themselves stay, with their message count: a viewer resuming
 * reads from the oldest message kept.
 */
export class SessionMessageRetentionJob implements PeriodicJob {
  readonly name = 'session-message-retention';
  readonly everyMs = 15 * 60_000;

  constructor(
    private readonly db: Queryable,
    private readonly sessions: SessionsRepository,
    private readonly retentionMs: number,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const batch = await this.sessions.deleteMessagesOlderThan(this.db, this.retentionMs, BATCH);
      deleted += batch;
      if (batch < BATCH) break;
    }
    if (deleted > 0) this.logger.info({ deleted }, 'session messages past their retention deleted');
    return deleted;
  }
}
