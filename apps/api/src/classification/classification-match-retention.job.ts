import type { Logger } from 'pino';
import type { Queryable } from '../database/query-rows.util';
import { RetentionJob } from '../jobs/retention.job';
import type { ClassificationMatchesRepository } from './classification-matches.repository';

/**
 * Every hour, once across all instances (the job runner's `scheduled_jobs`): deletes the rule
 * matches of every organisation recorded longer ago than the retention
 * (`CLASSIFICATION_MATCH_RETENTION`, 90 days by default; SPEC §8d), 2,000 at a time, each batch
 * its own short transaction, at most 200,000 a run (the next run carries on). A rule's figures
 * then describe its latest 90 days; receipts in the audit log stay.
 */
export class ClassificationMatchRetentionJob extends RetentionJob {
  constructor(
    db: Queryable,
    matches: ClassificationMatchesRepository,
    retentionMs: number,
    logger: Logger,
  ) {
    super(
      {
        name: 'classification-match-retention',
        everyMs: 60 * 60_000,
        batch: 2_000,
        maxBatches: 100,
        deleteBatch: (limit) => matches.deleteOlderThan(db, retentionMs, limit),
        logMessage: 'classification matches past their retention deleted',
      },
      logger,
    );
  }
}
