import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';

export const SESSION_STATUSES = ['active', 'ended', 'disconnected'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * A Live View session an agent streams messages into. `messageCount` is also the sequence
 * number of the last message: appends take their numbers by incrementing it under the row lock,
 * so numbers are gapless and commit in order (what `Last-Event-ID` resume relies on).
 */
@Entity({ name: 'sessions' })
// Agent hours of a month: the sessions still open (ended_at IS NULL) or ended since it began.
@Index('sessions_organisation_ended_idx', ['organisationId', 'endedAt'])
// Listing, newest first (migration 1795351200000); the active and externalId listings have
// partial indexes, which TypeORM cannot compare: created by the migration.
@Index('sessions_organisation_started_idx', ['organisationId', 'startedAt', 'id'])
@Index('sessions_organisation_active_idx', { synchronize: false })
@Index('sessions_organisation_external_idx', { synchronize: false })
// Name search (`q`): the name's words keyed by organisation (audit_log_search_keys(organisation_id,
// name_search)), migration 1795781500000.
@Index('sessions_name_search_keys_idx', { synchronize: false })
@Check('sessions_status_check', `"status" IN ('active', 'ended', 'disconnected')`)
export class SessionEntity extends OrganisationRow {
  @Column('text')
  name!: string;

  @Column('text', { nullable: true })
  externalId!: string | null;

  @Column('jsonb', { nullable: true })
  metadata!: Record<string, unknown> | null;

  @Column('text', { default: 'active' })
  status!: SessionStatus;

  @Column('integer', { default: 0 })
  messageCount!: number;

  /** The key that started it (no foreign key: keys are deleted when revoked). */
  @Column('uuid', { nullable: true })
  startedByKeyId!: string | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  startedAt!: Date;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  endedAt!: Date | null;

  /**
   * The name's words as `searchWords` folds them (case, accents), each a lexeme: what `q` matches
   * by prefix. Written with the session (names never change).
   */
  @Column('tsvector', { default: () => "''", select: false })
  nameSearch!: string;
}
