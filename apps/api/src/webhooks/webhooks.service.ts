import type { MemberActor } from '@interlock/domain';
import { DomainError } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { queryRows } from '../database/query-rows.util';
import { KeysetCursorCodec, keysetPage } from '@interlock/cursor';
import { JobRunner } from '../jobs/job-runner';
import type { CreateWebhookDto } from './dto/create-webhook.dto';
import type { ListWebhookDeliveriesQuery } from './dto/list-webhook-deliveries.query';
import type { UpdateWebhookDto } from './dto/update-webhook.dto';
import type { WebhookDeliveryListResponse, WebhookDeliveryResponse } from './dto/webhook-delivery.response';
import type { WebhookResponse, WebhookWithSecretResponse } from './dto/webhook.response';
import type { DeliveryStatus } from './webhook-delivery.entity';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { generateWebhookSecret, WebhookSecretBox } from './webhook-secret.util';
import { type AddressResolver, checkUrlShape, resolveTarget } from './webhook-url.util';

/** Webhooks per organisation: each event writes a delivery per subscribed webhook in its transaction. */
export const MAX_WEBHOOKS = 50;
/** How long the previous secret keeps signing after a rotation (SPEC §8a). */
const ROTATION_OVERLAP = `interval '24 hours'`;
const DEFAULT_PAGE = 50;

export const WEBHOOK_SECRET_BOX = Symbol('WEBHOOK_SECRET_BOX');
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

interface WebhookRow {
  id: string;
  url: string;
  description: string;
  event_types: string[] | null;
  enabled: boolean;
  failing_since: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const WEBHOOK_COLUMNS = `id, url, description, event_types, enabled, failing_since,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at,
  created_at, updated_at`;

function toWebhookResponse(row: WebhookRow): WebhookResponse {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    enabled: row.enabled,
    failingSince: row.failing_since?.toISOString() ?? null,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

interface DeliveryRow {
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
  attempts: { number: number; startedAt: string; responseStatus: number | null; durationMs: number; error: string | null }[];
}

const DELIVERY_COLUMNS = `d.id, d.webhook_id, d.event_id, d.event_type, d.status, d.attempt_count, d.last_response_status,
  d.last_duration_ms, d.last_error, d.due_at, d.last_attempt_at, d.created_at, d.finished_at,
  coalesce((SELECT json_agg(json_build_object(
              'number', a.number, 'startedAt', to_char(a.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'responseStatus', a.response_status, 'durationMs', a.duration_ms, 'error', a.error) ORDER BY a.number)
              FROM webhook_delivery_attempts a
             WHERE a.organisation_id = d.organisation_id AND a.delivery_id = d.id), '[]'::json) AS attempts`;

function toDeliveryResponse(row: DeliveryRow): WebhookDeliveryResponse {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    responseStatus: row.last_response_status,
    durationMs: row.last_duration_ms,
    error: row.last_error,
    nextAttemptAt: row.status === 'pending' ? (row.due_at?.toISOString() ?? null) : null,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    attempts: row.attempts,
  };
}

/**
 * Webhook management for members holding webhook.manage (SPEC §6, §8a). Every change writes its
 * audit entry in its transaction; the secret leaves the service only in the responses of
 * creation and rotation.
 */
@Injectable()
export class WebhooksService {
  private readonly cursors: KeysetCursorCodec;
  private readonly production: boolean;
  private readonly maxAttempts: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobRunner,
    @Inject(WEBHOOK_SECRET_BOX) private readonly box: WebhookSecretBox,
    @Inject(WEBHOOK_RESOLVER) private readonly resolve: AddressResolver,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new KeysetCursorCodec(config.cursorSecret, 'webhooks.deliveries');
    this.production = config.nodeEnv === 'production';
    this.maxAttempts = config.webhooks.retryScheduleMs.length + 1;
  }

  async list(organisationId: string): Promise<WebhookResponse[]> {
    const rows = await queryRows<WebhookRow>(
      this.dataSource,
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE organisation_id = $1 ORDER BY created_at, id`,
      [organisationId],
    );
    return rows.map(toWebhookResponse);
  }

  async get(organisationId: string, id: string): Promise<WebhookResponse> {
    const [row] = await queryRows<WebhookRow>(
      this.dataSource,
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE organisation_id = $1 AND id = $2`,
      [organisationId, id],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toWebhookResponse(row);
  }

  async create(organisationId: string, actor: MemberActor, body: CreateWebhookDto, ip: string | null): Promise<WebhookWithSecretResponse> {
    const url = await this.checkUrl(body.url);
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const row = await this.dataSource.transaction(async (tx) => {
      // One creation at a time per organisation, so the cap holds under concurrent requests.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || $1::text, 0))`, [organisationId]);
      const [{ count }] = await queryRows<{ count: number }>(tx, `SELECT count(*)::int AS count FROM webhooks WHERE organisation_id = $1`, [
        organisationId,
      ]);
      if (count >= MAX_WEBHOOKS) throw new DomainError('CONFLICT', `This organisation already has ${MAX_WEBHOOKS} webhooks, the most it can have.`);
      const [created] = await queryRows<WebhookRow>(
        tx,
        `INSERT INTO webhooks (organisation_id, id, url, description, event_types, enabled, secret, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING ${WEBHOOK_COLUMNS}`,
        [
          organisationId,
          id,
          url,
          body.description ?? '',
          body.eventTypes ?? null,
          body.enabled ?? true,
          this.box.seal(secret, organisationId, id),
          actor.id,
        ],
      );
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'webhook.created',
        actor: actor,
        target: { type: 'webhook', id, name: url },
        metadata: { url, description: created.description, eventTypes: created.event_types, enabled: created.enabled },
        ipAddress: ip,
      });
      return created;
    });
    return { ...toWebhookResponse(row), secret };
  }

  async update(organisationId: string, actor: MemberActor, id: string, body: UpdateWebhookDto, ip: string | null): Promise<WebhookResponse> {
    const url = body.url === undefined ? undefined : await this.checkUrl(body.url);
    const row = await this.dataSource.transaction(async (tx) => {
      const before = await this.lock(tx, organisationId, id);
      const after = {
        url: url ?? before.url,
        description: body.description ?? before.description,
        eventTypes: body.eventTypes === undefined ? before.event_types : body.eventTypes,
        enabled: body.enabled ?? before.enabled,
      };
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (after.url !== before.url) changes.url = { from: before.url, to: after.url };
      if (after.description !== before.description) changes.description = { from: before.description, to: after.description };
      if (JSON.stringify(after.eventTypes) !== JSON.stringify(before.event_types)) {
        changes.eventTypes = { from: before.event_types, to: after.eventTypes };
      }
      if (after.enabled !== before.enabled) changes.enabled = { from: before.enabled, to: after.enabled };
      if (Object.keys(changes).length === 0) return before;
      const [updated] = await queryRows<WebhookRow>(
        tx,
        `UPDATE webhooks SET url = $3, description = $4, event_types = $5, enabled = $6, updated_at = now(),
                failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END
          WHERE organisation_id = $1 AND id = $2
          RETURNING ${WEBHOOK_COLUMNS}`,
        [organisationId, id, after.url, after.description, after.eventTypes, after.enabled],
      );
      if (changes.enabled !== undefined) {
        // Disabled: pending deliveries wait out of the workers' way; enabled: they are due at once.
        await tx.query(
          `UPDATE webhook_deliveries SET due_at = ${after.enabled ? 'now()' : 'NULL'}
            WHERE organisation_id = $1 AND webhook_id = $2 AND status = 'pending'${after.enabled ? ' AND due_at IS NULL' : ''}`,
          [organisationId, id],
        );
      }
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'webhook.updated',
        actor: actor,
        target: { type: 'webhook', id, name: after.url },
        metadata: { changes },
        ipAddress: ip,
      });
      return updated;
    });
    if (body.enabled === true) this.jobs.wake(WebhookDeliveryWorker.NAME);
    return toWebhookResponse(row);
  }

  async remove(organisationId: string, actor: MemberActor, id: string, ip: string | null): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      // Deliveries first, then the webhook: the worker records an attempt by locking its delivery
      // and then (to keep the failure streak) its webhook, so locks are always taken in that order.
      await tx.query(`DELETE FROM webhook_deliveries WHERE organisation_id = $1 AND webhook_id = $2`, [organisationId, id]);
      const [webhook] = await queryRows<{ url: string }>(tx, `DELETE FROM webhooks WHERE organisation_id = $1 AND id = $2 RETURNING url`, [
        organisationId,
        id,
      ]);
      if (webhook === undefined) throw DomainError.of('NOT_FOUND');
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'webhook.deleted',
        actor: actor,
        target: { type: 'webhook', id, name: webhook.url },
        metadata: { url: webhook.url },
        ipAddress: ip,
      });
    });
  }

  /** A new secret; the previous one keeps signing beside it for 24 hours. */
  async rotateSecret(organisationId: string, actor: MemberActor, id: string, ip: string | null): Promise<WebhookWithSecretResponse> {
    const secret = generateWebhookSecret();
    const row = await this.dataSource.transaction(async (tx) => {
      const webhook = await this.lock(tx, organisationId, id);
      const [rotated] = await queryRows<WebhookRow>(
        tx,
        `UPDATE webhooks SET previous_secret = secret, previous_secret_expires_at = now() + ${ROTATION_OVERLAP}, secret = $3, updated_at = now()
          WHERE organisation_id = $1 AND id = $2
          RETURNING ${WEBHOOK_COLUMNS}`,
        [organisationId, id, this.box.seal(secret, organisationId, id)],
      );
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'webhook.secret_rotated',
        actor: actor,
        target: { type: 'webhook', id, name: webhook.url },
        metadata: { previousSecretExpiresAt: rotated.previous_secret_expires_at?.toISOString() ?? null },
        ipAddress: ip,
      });
      return rotated;
    });
    return { ...toWebhookResponse(row), secret };
  }

  /** Queues a `webhook.test` event to this webhook alone (sent even while it is disabled). */
  async sendTest(organisationId: string, actor: MemberActor, id: string): Promise<WebhookDeliveryResponse> {
    const deliveryId = await this.dataSource.transaction(async (tx) => {
      await this.lock(tx, organisationId, id);
      const eventId = randomUUID();
      const createdAt = new Date().toISOString();
      const body = JSON.stringify({
        id: eventId,
        type: 'webhook.test',
        createdAt,
        organisationId: organisationId,
        data: { webhookId: id, message: `A test event sent from Interlock by ${actor.name}.` },
      });
      await tx.query(
        `INSERT INTO webhook_events (organisation_id, id, type, subject_id, body, created_at) VALUES ($1, $2, 'webhook.test', $3, $4, $5)`,
        [organisationId, eventId, id, body, createdAt],
      );
      const newId = randomUUID();
      await tx.query(
        `INSERT INTO webhook_deliveries (organisation_id, id, webhook_id, event_id, event_type, subject_id, due_at, max_attempts)
         VALUES ($1, $2, $3, $4, 'webhook.test', $3, now(), $5)`,
        [organisationId, newId, id, eventId, this.maxAttempts],
      );
      return newId;
    });
    const queued = await this.delivery(organisationId, id, deliveryId);
    this.jobs.wake(WebhookDeliveryWorker.NAME);
    return queued;
  }

  /** The webhook's deliveries, newest first, each with its attempts. */
  async listDeliveries(organisationId: string, id: string, query: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryListResponse> {
    await this.get(organisationId, id);
    const filters = JSON.stringify([organisationId, id, query.status ?? null]);
    const page = await keysetPage<DeliveryRow>(
      this.cursors,
      { organisationId: organisationId, filters, cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE },
      (row) => row.created_at,
      (after, take) => {
        const params: unknown[] = [organisationId, id];
        const where = ['d.organisation_id = $1', 'd.webhook_id = $2'];
        if (query.status !== undefined) {
          params.push(query.status);
          where.push(`d.status = $${params.length}`);
        }
        if (after !== undefined) {
          params.push(after.createdAt, after.id);
          where.push(`(d.created_at, d.id) < ($${params.length - 1}, $${params.length})`);
        }
        params.push(take);
        return queryRows<DeliveryRow>(
          this.dataSource,
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
            WHERE ${where.join(' AND ')}
            ORDER BY d.created_at DESC, d.id DESC
            LIMIT $${params.length}`,
          params,
        );
      },
    );
    return { deliveries: page.rows.map(toDeliveryResponse), nextCursor: page.nextCursor };
  }

  /** Sends a finished delivery again now: one more attempt, not a new retry schedule. */
  async retryDelivery(organisationId: string, actor: MemberActor, id: string, deliveryId: string, ip: string | null): Promise<WebhookDeliveryResponse> {
    await this.dataSource.transaction(async (tx) => {
      // The delivery is locked, the webhook only read: the worker locks a delivery, then its webhook.
      const [webhook] = await queryRows<{ url: string; enabled: boolean }>(
        tx,
        `SELECT url, enabled FROM webhooks WHERE organisation_id = $1 AND id = $2`,
        [organisationId, id],
      );
      if (webhook === undefined) throw DomainError.of('NOT_FOUND');
      const [delivery] = await queryRows<{ status: DeliveryStatus; event_type: string; event_id: string }>(
        tx,
        `SELECT status, event_type, event_id FROM webhook_deliveries WHERE organisation_id = $1 AND webhook_id = $2 AND id = $3 FOR UPDATE`,
        [organisationId, id, deliveryId],
      );
      if (delivery === undefined) throw DomainError.of('NOT_FOUND');
      if (delivery.status === 'pending' || delivery.status === 'delivering') {
        throw new DomainError('CONFLICT', 'This delivery is already waiting to be sent.');
      }
      if (!webhook.enabled && delivery.event_type !== 'webhook.test') {
        throw new DomainError('CONFLICT', 'This webhook is disabled: enable it to retry its deliveries.');
      }
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'pending', due_at = now(), max_attempts = attempt_count + 1, finished_at = NULL
          WHERE organisation_id = $1 AND id = $2`,
        [organisationId, deliveryId],
      );
      await writeAuditEntry(tx, {
        organisationId: organisationId,
        action: 'webhook.delivery_retried',
        actor: actor,
        target: { type: 'webhook', id, name: webhook.url },
        metadata: { deliveryId, eventId: delivery.event_id, eventType: delivery.event_type, previousStatus: delivery.status },
        ipAddress: ip,
      });
    });
    const queued = await this.delivery(organisationId, id, deliveryId);
    this.jobs.wake(WebhookDeliveryWorker.NAME);
    return queued;
  }

  private async delivery(organisationId: string, webhookId: string, id: string): Promise<WebhookDeliveryResponse> {
    const [row] = await queryRows<DeliveryRow>(
      this.dataSource,
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.organisation_id = $1 AND d.webhook_id = $2 AND d.id = $3`,
      [organisationId, webhookId, id],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toDeliveryResponse(row);
  }

  /**
   * Locks the webhook for a change. Lock order everywhere: a delivery before its webhook (the
   * worker's record of an attempt does so); holding this lock, touch only pending deliveries
   * (never waited on: the worker holds only delivering ones) or new ones.
   */
  private async lock(tx: EntityManager, organisationId: string, id: string): Promise<WebhookRow> {
    const [row] = await queryRows<WebhookRow>(
      tx,
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE organisation_id = $1 AND id = $2 FOR UPDATE`,
      [organisationId, id],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return row;
  }

  /** The URL as stored (normalised), or 400: shape rules always, addresses in production. */
  private async checkUrl(raw: string): Promise<string> {
    const url = checkUrlShape(raw.trim(), this.production);
    if (typeof url === 'string') throw new DomainError('VALIDATION_FAILED', url);
    if (this.production) {
      const target = await resolveTarget(url, true, this.resolve);
      if (typeof target === 'string') throw new DomainError('VALIDATION_FAILED', target);
    }
    return url.toString();
  }
}
