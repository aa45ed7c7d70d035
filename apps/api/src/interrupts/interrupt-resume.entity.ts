import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { InterruptEntity } from './interrupt.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

export const RESUME_STATUSES = ['waiting', 'pending', 'delivering', 'succeeded', 'failed'] as const;
export type ResumeStatus = (typeof RESUME_STATUSES)[number];

/**
 * An interrupt's resumeUrl (SPEC §8e): `waiting` while the interrupt is open, then the POST of the
 * event that ended it — a queue row of its own, retried like a webhook delivery. `due_at` is when
 * a pending POST is next attempted or when a claimed one's lease runs out.
 */
@Entity({ name: 'interrupt_resumes' })
// Partial (WHERE status IN ('pending', 'delivering')), which TypeORM cannot compare: created by
// the migration. The worker's claim walks it.
@Index('interrupt_resumes_due_idx', { synchronize: false })
@Check(
  'interrupt_resumes_status_check',
  `"status" IN ('waiting', 'pending', 'delivering', 'succeeded', 'failed')`,
)
export class InterruptResumeEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  interruptId!: string;

  @ReferencesInOrganisation(() => InterruptEntity, 'interrupt_id')
  interrupt?: InterruptEntity;

  /** The URL and the signing secret, AES-256-GCM under a key derived from API_KEY_PEPPER. */
  @Column('bytea')
  sealed!: Buffer;

  @Column('text', { default: 'waiting' })
  status!: ResumeStatus;

  /** The POST's `webhook-id` (the same on every attempt), its event type and body, once due. */
  @Column('uuid', { nullable: true })
  eventId!: string | null;

  @Column('text', { nullable: true })
  eventType!: string | null;

  @Column('text', { nullable: true })
  body!: string | null;

  @Column('int', { default: 0 })
  attemptCount!: number;

  @Column('int')
  maxAttempts!: number;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  dueAt!: Date | null;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  lastAttemptAt!: Date | null;

  @Column('int', { nullable: true })
  lastResponseStatus!: number | null;

  @Column('text', { nullable: true })
  lastError!: string | null;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  finishedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
