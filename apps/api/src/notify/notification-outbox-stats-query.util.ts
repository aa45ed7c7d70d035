import type { Queryable } from '../database/query-rows.util';
import { type OutboxReading, readOutboxDepth } from '../jobs/outbox-stats-query.util';

/** `sending`: claimed by a delivery worker (its lease runs to `due_at`); `scheduled` includes a digest's hour. */
export type NotificationOutboxStats = OutboxReading<'sending', false>;

/** The notification outbox across every organisation, for operations (the metrics' depth and oldest due age). */
export function readNotificationOutboxStats(db: Queryable): Promise<NotificationOutboxStats> {
  return readOutboxDepth(db, 'notifications', 'sending');
}
