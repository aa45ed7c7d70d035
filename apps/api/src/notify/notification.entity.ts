import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';

export const NOTIFICATION_STATUSES = ['pending', 'sending', 'sent', 'logged', 'failed'] as const;
/** `logged`: email is off (no SMTP_URL): not sent (outside production, written to a file in MAIL_DIR). */
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/**
 * One notification to one person on one channel: the notification outbox (issue 30), written in
 * the transaction of the change it reports and sent by the delivery worker. Rows that share a
 * `batch_key` (one recipient's hourly or daily digest) leave together as one message; an
 * immediate notification's key is its own id. `due_at` is when a pending row is next attempted,
 * or when a claimed row's lease runs out.
 */
@Entity({ name: 'notifications' })
// Partial (WHERE status IN ('pending', 'sending')), which TypeORM cannot compare: created by the migration.
@Index('notifications_due_idx', { synchronize: false })
@Index('notifications_batch_idx', ['organisationId', 'recipientKey', 'batchKey'])
@Index('notifications_listing_idx', ['organisationId', 'createdAt', 'id'])
@Check(
  'notifications_status_check',
  `"status" IN ('pending', 'sending', 'sent', 'logged', 'failed')`,
)
export class NotificationEntity extends OrganisationRow {
  /** The member's user id; null for someone who is not a member yet (an invitation). */
  @Column('uuid', { nullable: true })
  recipientUserId!: string | null;

  /** The address as it was when the notification was written. */
  @Column('text')
  recipientEmail!: string;

  /** Who a batch belongs to: the user id, or the address for a non-member. */
  @Column('text')
  recipientKey!: string;

  @Column('text', { default: 'email' })
  channel!: string;

  /** A notification kind (`interrupt.opened`, …) or `invitation`. */
  @Column('text')
  kind!: string;

  /** `immediately`, `hourly` or `daily`. */
  @Column('text')
  mode!: string;

  @Column('uuid', { nullable: true })
  subjectId!: string | null;

  /** What the message shows (the interrupt as the API rendered it, trimmed; an invitation's sealed link). */
  @Column('jsonb')
  data!: Record<string, unknown>;

  @Column('text')
  batchKey!: string;

  @Column('text', { default: 'pending' })
  status!: NotificationStatus;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  dueAt!: Date | null;

  /** When it was meant to leave: now, or its digest's hour. */
  @Column('timestamp with time zone', { precision: 3 })
  scheduledFor!: Date;

  @Column('integer', { default: 0 })
  attemptCount!: number;

  @Column('integer')
  maxAttempts!: number;

  @Column('text', { nullable: true })
  lastError!: string | null;

  /** The Message-ID of the email it left in (shared by a digest's rows). */
  @Column('text', { nullable: true })
  messageId!: string | null;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  sentAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
