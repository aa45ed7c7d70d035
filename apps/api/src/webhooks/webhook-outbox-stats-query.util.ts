import type { Queryable } from '../database/query-rows.util';
import { type OutboxReading, readOutboxDepth } from '../jobs/outbox-stats-query.util';

/** Pending without a due time (`paused`): their webhook is disabled. */
export type OutboxStats = OutboxReading<'delivering', true>;

/** The webhook outbox across every organisation, for operations (the metrics' depth and oldest due age). */
export function readOutboxStats(db: Queryable): Promise<OutboxStats> {
  return readOutboxDepth(db, 'webhook_deliveries', 'delivering', true);
}
