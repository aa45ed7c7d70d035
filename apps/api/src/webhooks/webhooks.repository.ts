import { Injectable } from '@nestjs/common';
import type { KeysetPosition } from '@interlock/cursor';
import { type Queryable, queryRows } from '../database/query-rows.util';
import type { DeliveryStatus } from './webhook-delivery.entity';
import { currentTraceparent } from '../tracing/spans';

/** How long the previous secret keeps signing after a rotation (SPEC §8a). */
const ROTATION_OVERLAP = `interval '24 hours'`;

/** A webhook as members see it (never its secrets). */
export interface WebhookRow {
  id: string;
  url: string;
  description: string;
  event_types: string[] | null;
  enabled: boolean;
  failing_since: Date | null;
  /** Null once the previous secret stopped signing. */
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A delivery with its attempts, oldest attempt first. */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  last_response_status: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  due_at: Date | null;
  last_attempt_at: Date | null;
  created_at: Date;
  finished_at: Date | null;
  attempts: {
    number: number;
    startedAt: string;
    responseStatus: number | null;
    durationMs: number;
    error: string | null;
  }[];
}

export interface NewWebhook {
  id: string;
  url: string;
  description: string;
  eventTypes: string[] | null;
  enabled: boolean;
  /** The secret as stored: sealed (`WebhookSecretBox`). */
  sealedSecret: Buffer;
  createdBy: string;
}

export interface WebhookSettings {
  url: string;
  description: string;
  eventTypes: string[] | null;
  enabled: boolean;
}

export interface DeliveryPageQuery {
  status?: DeliveryStatus;
  after?: KeysetPosition;
  take: number;
}

const WEBHOOK_COLUMNS = `id, url, description, event_types, enabled, failing_since,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at,
  created_at, updated_at`;

const DELIVERY_COLUMNS = `d.id, d.webhook_id, d.event_id, d.event_type, d.status, d.attempt_count, d.last_response_status,
  d.last_duration_ms, d.last_error, d.due_at, d.last_attempt_at, d.created_at, d.finished_at,
  coalesce((SELECT json_agg(json_build_object(
              'number', a.number, 'startedAt', to_char(a.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'responseStatus', a.response_status, 'durationMs', a.duration_ms, 'error', a.error) ORDER BY a.number)
              FROM webhook_delivery_attempts a
             WHERE a.organisation_id = d.organisation_id AND a.delivery_id = d.id), '[]'::json) AS attempts`;

/**
 * The webhooks module's tables as management reads and changes them (`webhooks`,
 * `webhook_events`, `webhook_deliveries`, `webhook_delivery_attempts`; the outbox, the delivery
 * worker and the retention job are the module's other owners of the same tables). Every method
 * takes the handle to run on (the caller's transaction, or the data source for a plain read) and
 * the organisation first.
 *
 * Lock order everywhere: a delivery before its webhook (the worker's record of an attempt locks
 * its delivery, then its webhook to keep the failure streak). Holding a webhook's lock, a caller
 * touches only pending deliveries (never waited on: the worker holds only delivering ones) or new
 * ones.
 */
@Injectable()
export class WebhooksRepository {
  list(db: Queryable, organisationId: string): Promise<WebhookRow[]> {
    return queryRows<WebhookRow>(
      db,
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE organisation_id = $1 ORDER BY created_at, id`,
      [organisationId],
    );
  }

  async read(db: Queryable, organisationId: string, id: string): Promise<WebhookRow | undefined> {
    const [row] = await queryRows<WebhookRow>(
      db,
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
    return row;
  }

  /** The webhook, locked for a change until the transaction ends; undefined when it is not the organisation's. */
  async lock(db: Queryable, organisationId: string, id: string): Promise<WebhookRow | undefined> {
    const [row] = await queryRows<WebhookRow>(
      db,
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE organisation_id = $1 AND id = $2 FOR UPDATE`,
      [organisationId, id],
    );
    return row;
  }

  /** Serialises the organisation's creations until the transaction ends (so a cap holds), then counts its webhooks. */
  async countForCreation(db: Queryable, organisationId: string): Promise<number> {
    await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || $1::text, 0))`, [
      organisationId,
    ]);
    const [{ count }] = await queryRows<{ count: number }>(
      db,
      `SELECT count(*)::int AS count FROM webhooks WHERE organisation_id = $1`,
      [organisationId],
    );
    return count;
  }

  async insert(db: Queryable, organisationId: string, webhook: NewWebhook): Promise<WebhookRow> {
    const [created] = await queryRows<WebhookRow>(
      db,
      `INSERT INTO webhooks (organisation_id, id, url, description, event_types, enabled, secret, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING ${WEBHOOK_COLUMNS}`,
      [
        organisationId,
        webhook.id,
        webhook.url,
        webhook.description,
        webhook.eventTypes,
        webhook.enabled,
        webhook.sealedSecret,
        webhook.createdBy,
      ],
    );
    return created;
  }

  /**
   * Changes the settings of a webhook the caller locked; enabling one clears its failure streak.
   * Its pending deliveries follow `enabled`: disabled, they wait out of the workers' way (no due
   * time); enabled, the waiting ones are due at once.
   */
  async update(
    db: Queryable,
    organisationId: string,
    id: string,
    settings: WebhookSettings,
    enabledChanged: boolean,
  ): Promise<WebhookRow> {
    const [updated] = await queryRows<WebhookRow>(
      db,
      `UPDATE webhooks SET url = $3, description = $4, event_types = $5, enabled = $6, updated_at = now(),
              failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END
        WHERE organisation_id = $1 AND id = $2
        RETURNING ${WEBHOOK_COLUMNS}`,
      [
        organisationId,
        id,
        settings.url,
        settings.description,
        settings.eventTypes,
        settings.enabled,
      ],
    );
    if (enabledChanged) {
      await db.query(
        settings.enabled
          ? `UPDATE webhook_deliveries SET due_at = now()
              WHERE organisation_id = $1 AND webhook_id = $2 AND status = 'pending' AND due_at IS NULL`
          : `UPDATE webhook_deliveries SET due_at = NULL
              WHERE organisation_id = $1 AND webhook_id = $2 AND status = 'pending'`,
        [organisationId, id],
      );
    }
    return updated;
  }

  /** Deletes the webhook and its deliveries (deliveries first: the lock order); its URL, or undefined when it is not the organisation's. */
  async delete(
    db: Queryable,
    organisationId: string,
    id: string,
  ): Promise<{ url: string } | undefined> {
    await db.query(
      `DELETE FROM webhook_deliveries WHERE organisation_id = $1 AND webhook_id = $2`,
      [organisationId, id],
    );
    const [webhook] = await queryRows<{ url: string }>(
      db,
      `DELETE FROM webhooks WHERE organisation_id = $1 AND id = $2 RETURNING url`,
      [organisationId, id],
    );
    return webhook;
  }

  /** A new (sealed) secret for a webhook the caller locked; the previous one keeps signing for 24 hours. */
  async rotateSecret(
    db: Queryable,
    organisationId: string,
    id: string,
    sealedSecret: Buffer,
  ): Promise<WebhookRow> {
    const [rotated] = await queryRows<WebhookRow>(
      db,
      `UPDATE webhooks SET previous_secret = secret, previous_secret_expires_at = now() + ${ROTATION_OVERLAP}, secret = $3, updated_at = now()
        WHERE organisation_id = $1 AND id = $2
        RETURNING ${WEBHOOK_COLUMNS}`,
      [organisationId, id, sealedSecret],
    );
    return rotated;
  }

  /** Queues an event (its JSON body as sent) to one webhook alone, due at once. */
  async queueSingleDelivery(
    db: Queryable,
    organisationId: string,
    webhookId: string,
    event: { id: string; type: string; body: string; createdAt: string },
    deliveryId: string,
    maxAttempts: number,
  ): Promise<void> {
    await db.query(
      `INSERT INTO webhook_events (organisation_id, id, type, subject_id, body, created_at, trace_parent) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        organisationId,
        event.id,
        event.type,
        webhookId,
        event.body,
        event.createdAt,
        currentTraceparent(),
      ],
    );
    await db.query(
      `INSERT INTO webhook_deliveries (organisation_id, id, webhook_id, event_id, event_type, subject_id, due_at, max_attempts)
       VALUES ($1, $2, $3, $4, $5, $3, now(), $6)`,
      [organisationId, deliveryId, webhookId, event.id, event.type, maxAttempts],
    );
  }

  /** The webhook's deliveries, newest first, each with its attempts. */
  listDeliveries(
    db: Queryable,
    organisationId: string,
    webhookId: string,
    query: DeliveryPageQuery,
  ): Promise<DeliveryRow[]> {
    const params: unknown[] = [organisationId, webhookId];
    const where = ['d.organisation_id = $1', 'd.webhook_id = $2'];
    if (query.status !== undefined) {
      params.push(query.status);
      where.push(`d.status = $${params.length}`);
    }
    if (query.after !== undefined) {
      params.push(query.after.createdAt, query.after.id);
      where.push(`(d.created_at, d.id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(query.take);
    return queryRows<DeliveryRow>(
      db,
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
        WHERE ${where.join(' AND ')}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $${params.length}`,
      params,
    );
  }

  async readDelivery(
    db: Queryable,
    organisationId: string,
    webhookId: string,
    id: string,
  ): Promise<DeliveryRow | undefined> {
    const [row] = await queryRows<DeliveryRow>(
      db,
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.organisation_id = $1 AND d.webhook_id = $2 AND d.id = $3`,
      [organisationId, webhookId, id],
    );
    return row;
  }

  /** The delivery, locked until the transaction ends; undefined when it is not the webhook's. */
  async lockDelivery(
    db: Queryable,
    organisationId: string,
    webhookId: string,
    id: string,
  ): Promise<{ status: DeliveryStatus; event_type: string; event_id: string } | undefined> {
    const [row] = await queryRows<{ status: DeliveryStatus; event_type: string; event_id: string }>(
      db,
      `SELECT status, event_type, event_id FROM webhook_deliveries WHERE organisation_id = $1 AND webhook_id = $2 AND id = $3 FOR UPDATE`,
      [organisationId, webhookId, id],
    );
    return row;
  }

  /** Makes a finished delivery pending again, due now, for one more attempt. */
  async requeueDelivery(db: Queryable, organisationId: string, id: string): Promise<void> {
    await db.query(
      `UPDATE webhook_deliveries SET status = 'pending', due_at = now(), max_attempts = attempt_count + 1, finished_at = NULL
        WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
  }
}
