import type { Logger } from 'pino';
import type { Queryable } from '../database/query-rows.util';
import { RetentionJob } from '../jobs/retention.job';
import type { SessionsRepository } from './sessions.repository';

/**
 * Every 15 minutes, once across all instances (the job runner's `scheduled_jobs`): deletes the
 * session messages of every organisation appended longer ago than the retention
 * (`SESSION_MESSAGE_RETENTION`, 90 days by default; SPEC §8), 2,000 at a time, each batch its
 * own short transaction, at most 200,000 a run (the next run carries on). The deletions free the
 * organisations' storage quota (a trigger subtracts their bytes). Sessions themselves stay, with
 * their message count: a viewer resuming reads from the oldest message kept.
 */
export class SessionMessageRetentionJob extends RetentionJob {
  constructor(db: Queryable, sessions: SessionsRepository, retentionMs: number, logger: Logger) {
    super(
      {
        name: 'session-message-retention',
        everyMs: 15 * 60_000,
        batch: 2_000,
        maxBatches: 100,
        deleteBatch: (limit) => sessions.deleteMessagesOlderThan(db, retentionMs, limit),
        logMessage: 'session messages past their retention deleted',
      },
      logger,
    );
  }
}
