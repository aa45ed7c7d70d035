import type { Logger } from 'pino';
import type { Queryable } from '../database/query-rows.util';
import { queryRows } from '../database/query-rows.util';
import { deleteInBatches } from '../jobs/delete-in-batches.util';
import type { PeriodicJob } from '../jobs/periodic-jobs.worker';

const BATCH = 1_000;
/** A run stops after this many batches per kind; the next run carries on. */
const MAX_BATCHES = 50;

/**
 * Hourly: deletes deliveries finished longer ago than the retention, then events older than it
 * with no delivery left, then deliveries whose webhook was deleted while their event was being
 * written (they can never be sent). A batch at a time, so no run holds locks for long.
 */
export class WebhookRetentionJob implements PeriodicJob {
  readonly name = 'webhook-retention';
  readonly everyMs = 3_600_000;

  constructor(
    private readonly db: Queryable,
    private readonly retentionMs: number,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<void> {
    const deleted = { deliveries: 0, events: 0, orphans: 0 };
    deleted.deliveries = await this.batches(
      `DELETE FROM webhook_deliveries WHERE (organisation_id, id) IN (
         SELECT organisation_id, id FROM webhook_deliveries
          WHERE finished_at IS NOT NULL AND finished_at < now() - $1::bigint * interval '1 millisecond' LIMIT ${BATCH})
       RETURNING 1`,
    );
    deleted.events = await this.batches(
      `DELETE FROM webhook_events WHERE (organisation_id, id) IN (
         SELECT e.organisation_id, e.id FROM webhook_events e
          WHERE e.created_at < now() - $1::bigint * interval '1 millisecond'
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.organisation_id = e.organisation_id AND d.event_id = e.id)
          LIMIT ${BATCH})
       RETURNING 1`,
    );
    deleted.orphans = await this.batches(
      `DELETE FROM webhook_deliveries WHERE (organisation_id, id) IN (
         SELECT d.organisation_id, d.id FROM webhook_deliveries d
          WHERE d.status IN ('pending', 'delivering') AND d.created_at < now() - interval '1 minute' AND $1::bigint >= 0
            AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.organisation_id = d.organisation_id AND w.id = d.webhook_id)
          LIMIT ${BATCH})
       RETURNING 1`,
    );
    if (deleted.deliveries + deleted.events + deleted.orphans > 0)
      this.logger.info(deleted, 'webhook retention');
  }

  private batches(sql: string): Promise<number> {
    return deleteInBatches(
      async () => (await queryRows<unknown>(this.db, sql, [this.retentionMs])).length,
      BATCH,
      MAX_BATCHES,
    );
  }
}
