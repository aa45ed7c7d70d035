import { Check, Column, CreateDateColumn, Entity, Generated, Index } from 'typeorm';
import { OrganisationScopedRow } from '../organisation/organisation-row';
import { WebhookEventEntity } from './webhook-event.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to one webhook: the delivery queue. `due_at` is when a pending delivery is next
 * attempted (null while its webhook is disabled) or when a claimed one's lease runs out.
 */
@Entity({ name: 'webhook_deliveries' })
// Partial (WHERE status IN ('pending', 'delivering')), which TypeORM cannot compare: created by
// the migration. The workers' claim walks `due`; `subject` keeps one subject's deliveries to one
// webhook in event order.
@Index('webhook_deliveries_due_idx', { synchronize: false })
@Index('webhook_deliveries_subject_idx', { synchronize: false })
@Index('webhook_deliveries_finished_idx', { synchronize: false })
@Index('webhook_deliveries_listing_idx', ['organisationId', 'webhookId', 'createdAt', 'id'])
@Index('webhook_deliveries_event_idx', ['organisationId', 'eventId'])
@Check(
  'webhook_deliveries_status_check',
  `"status" IN ('pending', 'delivering', 'succeeded', 'failed')`,
)
export class WebhookDeliveryEntity extends OrganisationScopedRow {
  /** No foreign key: an event written while its webhook is being deleted must not fail the change. */
  @Column('uuid')
  webhookId!: string;

  @Column('uuid')
  eventId!: string;

  @ReferencesInOrganisation(() => WebhookEventEntity, 'event_id')
  event?: WebhookEventEntity;

  @Column('text')
  eventType!: string;

  @Column('uuid')
  subjectId!: string;

  /** Write order: deliveries of one subject to one webhook leave in this order. */
  @Column('bigint')
  @Generated('increment')
  seq!: string;

  @Column('text', { default: 'pending' })
  status!: DeliveryStatus;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  dueAt!: Date | null;

  @Column('integer', { default: 0 })
  attemptCount!: number;

  /** Attempts allowed: the retry schedule's length + 1; a member's retry allows one more. */
  @Column('integer')
  maxAttempts!: number;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  lastAttemptAt!: Date | null;

  @Column('integer', { nullable: true })
  lastResponseStatus!: number | null;

  @Column('integer', { nullable: true })
  lastDurationMs!: number | null;

  @Column('text', { nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  finishedAt!: Date | null;
}
