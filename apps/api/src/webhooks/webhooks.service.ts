import { DomainError } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import type { MemberCall } from '../auth/caller';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { KeysetCursorCodec, keysetPage } from '@interlock/cursor';
import { JobRunner } from '../jobs/job-runner';
import type { CreateWebhookCommand } from './create-webhook.command';
import type { ListWebhookDeliveriesCommand } from './list-webhook-deliveries.command';
import type { UpdateWebhookCommand } from './update-webhook.command';
import type {
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
} from './dto/webhook-delivery.response';
import type { WebhookResponse, WebhookWithSecretResponse } from './dto/webhook.response';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { generateWebhookSecret, WebhookSecretBox } from './webhook-secret.util';
import { type AddressResolver, checkEndpointUrl } from './webhook-url.util';
import { type DeliveryRow, type WebhookRow, WebhooksRepository } from './webhooks.repository';

/** Webhooks per organisation: each event writes a delivery per subscribed webhook in its transaction. */
export const MAX_WEBHOOKS = 50;
const DEFAULT_PAGE = 50;

export const WEBHOOK_SECRET_BOX = Symbol('WEBHOOK_SECRET_BOX');
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

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
 * Webhook management for members holding webhook.manage (SPEC §6, §8a): the rules; the tables
 * are `WebhooksRepository`'s. Every change writes its audit entry in its transaction; the secret
 * leaves the service only in the responses of creation and rotation.
 */
@Injectable()
export class WebhooksService {
  private readonly cursors: KeysetCursorCodec;
  private readonly production: boolean;
  private readonly maxAttempts: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
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
    return (await this.webhooks.list(this.dataSource, organisationId)).map(toWebhookResponse);
  }

  async get(organisationId: string, id: string): Promise<WebhookResponse> {
    const row = await this.webhooks.read(this.dataSource, organisationId, id);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toWebhookResponse(row);
  }

  async create(command: CreateWebhookCommand): Promise<WebhookWithSecretResponse> {
    const { organisationId, actor, webhook: body, ip } = command;
    const url = await this.checkUrl(body.url);
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const row = await this.dataSource.transaction(async (tx) => {
      // One creation at a time per organisation, so the cap holds under concurrent requests.
      const count = await this.webhooks.countForCreation(tx, organisationId);
      if (count >= MAX_WEBHOOKS)
        throw new DomainError(
          'CONFLICT',
          `This organisation already has ${MAX_WEBHOOKS} webhooks, the most it can have.`,
        );
      const created = await this.webhooks.insert(tx, organisationId, {
        id,
        url,
        description: body.description ?? '',
        eventTypes: body.eventTypes ?? null,
        enabled: body.enabled ?? true,
        sealedSecret: this.box.seal(secret, organisationId, id),
        createdBy: actor.id,
      });
      await writeAuditEntry(tx, {
        organisationId,
        action: 'webhook.created',
        actor,
        target: { type: 'webhook', id, name: url },
        metadata: {
          url,
          description: created.description,
          eventTypes: created.event_types,
          enabled: created.enabled,
        },
        ipAddress: ip,
      });
      return created;
    });
    return { ...toWebhookResponse(row), secret };
  }

  async update(command: UpdateWebhookCommand): Promise<WebhookResponse> {
    const { organisationId, actor, webhookId: id, changes: body, ip } = command;
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
      if (after.description !== before.description)
        changes.description = { from: before.description, to: after.description };
      if (JSON.stringify(after.eventTypes) !== JSON.stringify(before.event_types)) {
        changes.eventTypes = { from: before.event_types, to: after.eventTypes };
      }
      if (after.enabled !== before.enabled)
        changes.enabled = { from: before.enabled, to: after.enabled };
      if (Object.keys(changes).length === 0) return before;
      // Disabled: pending deliveries wait out of the workers' way; enabled: they are due at once.
      const updated = await this.webhooks.update(
        tx,
        organisationId,
        id,
        after,
        changes.enabled !== undefined,
      );
      await writeAuditEntry(tx, {
        organisationId,
        action: 'webhook.updated',
        actor,
        target: { type: 'webhook', id, name: after.url },
        metadata: { changes },
        ipAddress: ip,
      });
      return updated;
    });
    if (body.enabled === true) this.jobs.wake(WebhookDeliveryWorker.NAME);
    return toWebhookResponse(row);
  }

  async remove({ organisationId, actor, ip }: MemberCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      // Deliveries first, then the webhook (the repository's lock order).
      const webhook = await this.webhooks.delete(tx, organisationId, id);
      if (webhook === undefined) throw DomainError.of('NOT_FOUND');
      await writeAuditEntry(tx, {
        organisationId,
        action: 'webhook.deleted',
        actor,
        target: { type: 'webhook', id, name: webhook.url },
        metadata: { url: webhook.url },
        ipAddress: ip,
      });
    });
  }

  /** A new secret; the previous one keeps signing beside it for 24 hours. */
  async rotateSecret(
    { organisationId, actor, ip }: MemberCall,
    id: string,
  ): Promise<WebhookWithSecretResponse> {
    const secret = generateWebhookSecret();
    const row = await this.dataSource.transaction(async (tx) => {
      const webhook = await this.lock(tx, organisationId, id);
      const rotated = await this.webhooks.rotateSecret(
        tx,
        organisationId,
        id,
        this.box.seal(secret, organisationId, id),
      );
      await writeAuditEntry(tx, {
        organisationId,
        action: 'webhook.secret_rotated',
        actor,
        target: { type: 'webhook', id, name: webhook.url },
        metadata: {
          previousSecretExpiresAt: rotated.previous_secret_expires_at?.toISOString() ?? null,
        },
        ipAddress: ip,
      });
      return rotated;
    });
    return { ...toWebhookResponse(row), secret };
  }

  /** Queues a `webhook.test` event to this webhook alone (sent even while it is disabled). */
  async sendTest(
    { organisationId, actor }: MemberCall,
    id: string,
  ): Promise<WebhookDeliveryResponse> {
    const queued = await this.dataSource.transaction(async (tx) => {
      await this.lock(tx, organisationId, id);
      const eventId = randomUUID();
      const createdAt = new Date().toISOString();
      const body = JSON.stringify({
        id: eventId,
        type: 'webhook.test',
        createdAt,
        organisationId,
        data: { webhookId: id, message: `A test event sent from Interlock by ${actor.name}.` },
      });
      const newId = randomUUID();
      await this.webhooks.queueSingleDelivery(
        tx,
        organisationId,
        id,
        { id: eventId, type: 'webhook.test', body, createdAt },
        newId,
        this.maxAttempts,
      );
      return this.delivery(tx, organisationId, id, newId);
    });
    this.jobs.wake(WebhookDeliveryWorker.NAME);
    return queued;
  }

  /** The webhook's deliveries, newest first, each with its attempts. */
  async listDeliveries({
    organisationId,
    webhookId: id,
    listing: query,
  }: ListWebhookDeliveriesCommand): Promise<WebhookDeliveryListResponse> {
    await this.get(organisationId, id);
    const filters = JSON.stringify([organisationId, id, query.status ?? null]);
    const page = await keysetPage<DeliveryRow>(
      this.cursors,
      {
        organisationId,
        filters,
        cursor: query.cursor,
        limit: query.limit ?? DEFAULT_PAGE,
      },
      (row) => row.created_at,
      (after, take) =>
        this.webhooks.listDeliveries(this.dataSource, organisationId, id, {
          status: query.status,
          after,
          take,
        }),
    );
    return { deliveries: page.rows.map(toDeliveryResponse), nextCursor: page.nextCursor };
  }

  /** Sends a finished delivery again now: one more attempt, not a new retry schedule. */
  async retryDelivery(
    { organisationId, actor, ip }: MemberCall,
    id: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    const queued = await this.dataSource.transaction(async (tx) => {
      // The delivery is locked, the webhook only read: the worker locks a delivery, then its webhook.
      const webhook = await this.webhooks.read(tx, organisationId, id);
      if (webhook === undefined) throw DomainError.of('NOT_FOUND');
      const delivery = await this.webhooks.lockDelivery(tx, organisationId, id, deliveryId);
      if (delivery === undefined) throw DomainError.of('NOT_FOUND');
      if (delivery.status === 'pending' || delivery.status === 'delivering') {
        throw new DomainError('CONFLICT', 'This delivery is already waiting to be sent.');
      }
      if (!webhook.enabled && delivery.event_type !== 'webhook.test') {
        throw new DomainError(
          'CONFLICT',
          'This webhook is disabled: enable it to retry its deliveries.',
        );
      }
      await this.webhooks.requeueDelivery(tx, organisationId, deliveryId);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'webhook.delivery_retried',
        actor,
        target: { type: 'webhook', id, name: webhook.url },
        metadata: {
          deliveryId,
          eventId: delivery.event_id,
          eventType: delivery.event_type,
          previousStatus: delivery.status,
        },
        ipAddress: ip,
      });
      return this.delivery(tx, organisationId, id, deliveryId);
    });
    this.jobs.wake(WebhookDeliveryWorker.NAME);
    return queued;
  }

  /**
   * One delivery as the response shows it. Read inside the transaction that queued it, so the
   * answer is the delivery as queued: after the commit the worker may already be sending it.
   */
  private async delivery(
    db: Queryable,
    organisationId: string,
    webhookId: string,
    id: string,
  ): Promise<WebhookDeliveryResponse> {
    const row = await this.webhooks.readDelivery(db, organisationId, webhookId, id);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toDeliveryResponse(row);
  }

  /** Locks the webhook for a change (see the repository's lock order); 404 when it is not the organisation's. */
  private async lock(tx: Queryable, organisationId: string, id: string): Promise<WebhookRow> {
    const row = await this.webhooks.lock(tx, organisationId, id);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return row;
  }

  /** The URL as stored (normalised), or 400: shape rules always, addresses in production. */
  private async checkUrl(raw: string): Promise<string> {
    const checked = await checkEndpointUrl(raw, this.production, this.resolve);
    if ('refusal' in checked) throw new DomainError('VALIDATION_FAILED', checked.refusal);
    return checked.url;
  }
}
