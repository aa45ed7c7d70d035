import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';
import { SessionEntity } from '../sessions/session.entity';
import type { StoredActionRequest } from './interrupt-record';

export const INTERRUPT_STATUSES = ['open', 'answered', 'expired', 'withdrawn'] as const;
export type InterruptStatus = (typeof INTERRUPT_STATUSES)[number];

/** What an interrupt's deadline does (SPEC §8e); `reject` is the default, the least permissive. */
export const ON_TIMEOUT = ['reject', 'approve', 'escalate'] as const;
export type OnTimeout = (typeof ON_TIMEOUT)[number];

/** How urgent an interrupt is (SPEC §8e), least first; `normal` unless its agent or a rule says otherwise. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** A human-review request an agent opened (SPEC §5). `open` until every action has a decision. */
@Entity({ name: 'interrupts' })
// Listing, newest first, with and without the status filter (keyset on created_at, id), each
// carrying the title words (INCLUDE, which TypeORM cannot express: created by migration
// 1795351300000) so a title search's ordered walk reads the index alone.
@Index('interrupts_organisation_created_idx', { synchronize: false })
@Index('interrupts_organisation_status_created_idx', { synchronize: false })
// Partial (WHERE external_id IS NOT NULL), which TypeORM cannot compare: created by the migration.
@Index('interrupts_organisation_external_idx', { synchronize: false })
// The inbox (migrations 1795351200000, 1795351300000), partial or GIN, so also created by the
// migrations: assigned to a member or team (organisation_id, assignee_type, assignee_id, status,
// created_at, id), unassigned and escalated (organisation_id, status, created_at, id), and the
// title words keyed by organisation (audit_log_search_keys(organisation_id, title_search)).
@Index('interrupts_organisation_assignee_idx', { synchronize: false })
@Index('interrupts_organisation_unassigned_idx', { synchronize: false })
@Index('interrupts_organisation_escalated_idx', { synchronize: false })
@Index('interrupts_title_search_keys_idx', { synchronize: false })
// Opened by a key (openedBy=me): (organisation_id, opened_by_key_id, status, created_at, id),
// migration 1795372000000.
@Index('interrupts_organisation_opened_by_idx', { synchronize: false })
@Check('interrupts_status_check', `"status" IN ('open', 'answered', 'expired', 'withdrawn')`)
@Check('interrupts_on_timeout_check', `"on_timeout" IN ('reject', 'approve', 'escalate')`)
// Open interrupts with a deadline, by deadline (partial: created by migration 1795720000000).
@Index('interrupts_due_idx', { synchronize: false })
// The inbox by deadline (order=deadline): (organisation_id, status, COALESCE(expires_at, NO_DEADLINE),
// id), an expression TypeORM cannot express: created by migration 1795742000000.
@Index('interrupts_organisation_status_deadline_idx', { synchronize: false })
@Check('interrupts_assignee_type_check', `"assignee_type" IN ('member', 'team')`)
@Check('interrupts_risk_check', `"risk" IN ('low', 'medium', 'high', 'critical')`)
@Check('interrupts_priority_check', `"priority" IN ('low', 'normal', 'high', 'urgent')`)
export class InterruptEntity extends OrganisationRow {
  @Column('text')
  title!: string;

  @Column('text', { nullable: true })
  description!: string | null;

  @Column('text', { nullable: true })
  externalId!: string | null;

  @Column('uuid', { nullable: true })
  sessionId!: string | null;

  @ManyToOne(() => SessionEntity)
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'session_id', referencedColumnName: 'id' },
  ])
  session?: SessionEntity;

  @Column('text', { default: 'open' })
  status!: InterruptStatus;

  @Column('jsonb')
  actionRequests!: StoredActionRequest[];

  @Column('jsonb', { nullable: true })
  metadata!: Record<string, unknown> | null;

  /** The key that opened it (no foreign key: keys are deleted when revoked). */
  @Column('uuid', { nullable: true })
  openedByKeyId!: string | null;

  /** That key's name as it was when it opened the interrupt (the record's `openedBy`). */
  @Column('text', { nullable: true })
  openedByKeyName!: string | null;

  /** The external classifier's highest risk over the actions it answered for (SPEC §8d); null: none answered. */
  @Column('text', { nullable: true })
  risk!: 'low' | 'medium' | 'high' | 'critical' | null;

  /** The labels the external classifier gave the actions, each once, in the order first given. */
  @Column('text', { array: true, nullable: true })
  riskLabels!: string[] | null;

  /** How urgent it is (SPEC §8e): set by its agent at creation, a rule's route, or a member since. */
  @Column('text', { default: 'normal' })
  priority!: Priority;

  /** The labels its agent gave it at creation, each once, in order; null for none (SPEC §8e). */
  @Column('text', { array: true, nullable: true })
  agentLabels!: string[] | null;

  /** The assignee as named when assigned (members and teams can be renamed or removed later). */
  @Column('text', { nullable: true })
  assigneeType!: 'member' | 'team' | null;

  @Column('uuid', { nullable: true })
  assigneeId!: string | null;

  @Column('text', { nullable: true })
  assigneeName!: string | null;

  /** 0 until escalated; each escalation raises it by one. */
  @Column('integer', { default: 0 })
  escalationLevel!: number;

  @Column('text', { nullable: true })
  escalationReason!: string | null;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  escalatedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  answeredAt!: Date | null;

  /** The deadline (SPEC §8e), or null for none. */
  @Column('timestamp with time zone', { precision: 3, nullable: true })
  expiresAt!: Date | null;

  /** What the deadline does: reject, approve or escalate; null when there is no deadline. */
  @Column('text', { nullable: true })
  onTimeout!: OnTimeout | null;

  /** Set when an `escalate` deadline escalated the interrupt and extended itself (it does so once). */
  @Column('boolean', { default: false })
  timeoutEscalated!: boolean;

  /** How many steps of its escalation policy (its team's or its organisation's) it has passed (SPEC §8e). */
  @Column('smallint', { default: 0 })
  escalationStep!: number;

  /** Whose policy `escalationStep` counts in: a team's (its id), or null for the organisation's. */
  @Column('uuid', { nullable: true })
  escalationPolicyTeamId!: string | null;

  /** From when that policy's minutes count; null: since the interrupt opened. */
  @Column('timestamp with time zone', { precision: 3, nullable: true })
  escalationClockAt!: Date | null;

  /** When its assignee last changed (a team's policy counts from then); null: never since it opened. */
  @Column('timestamp with time zone', { precision: 3, nullable: true })
  assigneeChangedAt!: Date | null;

  /** When the people it waits on were warned that its current deadline is near (SPEC §8h); null: not yet. */
  @Column('timestamp with time zone', { precision: 3, nullable: true })
  deadlineWarnedAt!: Date | null;

  /** When it became expired or withdrawn. */
  @Column('timestamp with time zone', { precision: 3, nullable: true })
  closedAt!: Date | null;

  /** Why the agent withdrew it, when it said. */
  @Column('text', { nullable: true })
  withdrawnReason!: string | null;

  /**
   * The title's folded words (libs/audit searchWords) for the inbox's title search. The default
   * is `''::tsvector` in the migration; TypeORM reads defaults without their casts.
   */
  @Column('tsvector', { default: () => "''", select: false })
  titleSearch!: string;

  /**
   * The record as the API renders it, kept by the service with every change (InterruptsRepository
   * keepRecord); NULL until then, and cleared by the database whenever a change does not set it
   * (migration 1795410000000).
   */
  @Column('text', { nullable: true, select: false })
  recordJson!: string | null;

  /**
   * The version of the rendering `record_json` holds (interrupt-record.ts RECORD_RENDER_VERSION):
   * a record kept by an older renderer is rendered again instead of answered.
   */
  @Column('smallint', { nullable: true, select: false })
  recordVersion!: number | null;
}
