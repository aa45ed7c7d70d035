import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationScopedRow } from '../organisation/organisation-row';

/**
 * The outbox: an event, written in the same transaction as the change it reports (SPEC §8a), with
 * the exact body every delivery of it sends. Only events some webhook subscribed to are kept. Its
 * id is also the `webhook-id` header of its deliveries.
 */
@Entity({ name: 'webhook_events' })
// Retention deletes old events (and with them their deliveries), oldest first, across organisations.
@Index('webhook_events_created_idx', ['createdAt'])
export class WebhookEventEntity extends OrganisationScopedRow {
  @Column('text')
  type!: string;

  /** The interrupt, session or webhook it is about. */
  @Column('uuid')
  subjectId!: string;

  /** `{id, type, createdAt, organisationId, data}` as sent: text, so retries send the same bytes. */
  @Column('text')
  body!: string;

  /** The W3C `traceparent` of the request or job that wrote it (traces on), continued by its deliveries. */
  @Column('text', { nullable: true })
  traceParent!: string | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
