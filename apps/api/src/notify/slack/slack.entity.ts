import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Risk } from '../../classification/rule-engine';
import { OrganisationEntity } from '../../organisation/organisation.entity';
import { OneRowPerOrganisation } from '../../organisation/organisation-row';
import { References } from '../../database/references.decorator';

/**
 * An organisation's Slack app (issue 30 §4): its bot token and signing secret, sealed like
 * webhook secrets (AES-256-GCM under a key derived from API_KEY_PEPPER, bound to this row), the
 * workspace it belongs to, the channel new interrupts are posted to and which ones (all, or
 * those assigned to one team). One per organisation; Slack's request URL names the organisation
 * (`/api/slack/interactions/{organisationId}`), and only its signing secret admits a request.
 */
@Entity({ name: 'slack_connections' })
@Check('slack_connections_min_risk_check', `"min_risk" IN ('low', 'medium', 'high', 'critical')`)
export class SlackConnectionEntity extends OneRowPerOrganisation({
  primaryKey: 'slack_connections_pkey',
  foreignKey: 'slack_connections_organisation_fk',
}) {
  @Column('text')
  slackTeamId!: string;

  @Column('text')
  slackTeamName!: string;

  @Column('text')
  botUserId!: string;

  @Column('bytea')
  botToken!: Buffer;

  @Column('bytea')
  signingSecret!: Buffer;

  @Column('text')
  channelId!: string;

  /** Null: every new interrupt is posted; else only those assigned to this Interlock team. */
  @Column('uuid', { nullable: true })
  teamId!: string | null;

  /**
   * Null: whatever the risk; else only interrupts whose risk (argus's classifier, SPEC §8d) is at
   * least this one — and those whose risk is unknown (null), which go to a person (SPEC §8h).
   */
  @Column('text', { nullable: true })
  minRisk!: Risk | null;

  @Column('timestamp with time zone', { precision: 3 })
  credentialsSetAt!: Date;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}

export const SLACK_MESSAGE_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type SlackMessageStatus = (typeof SLACK_MESSAGE_STATUSES)[number];

/**
 * The Slack message of one interrupt: written in the transaction that opened (or assigned) the
 * interrupt, and touched by every later change of it, which stores the interrupt as it now is
 * and raises `version`. The worker posts it (`ts` is Slack's id of the message) and then edits
 * it until `posted_version` reaches `version`: one row per interrupt, claimed by one worker at a
 * time, so edits never overtake each other and the message ends showing the interrupt's last
 * state.
 */
@Entity({ name: 'slack_messages' })
// Partial (WHERE status IN ('pending', 'sending')), which TypeORM cannot compare: created by the migration.
@Index('slack_messages_due_idx', { synchronize: false })
@Index('slack_messages_listing_idx', ['organisationId', 'updatedAt'])
@Check('slack_messages_status_check', `"status" IN ('pending', 'sending', 'sent', 'failed')`)
export class SlackMessageEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'slack_messages_pkey' })
  organisationId!: string;

  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'slack_messages_pkey' })
  interruptId!: string;

  @References(() => OrganisationEntity, 'organisation_id', {
    foreignKeyConstraintName: 'slack_messages_organisation_fk',
  })
  organisation?: OrganisationEntity;

  @Column('text')
  channelId!: string;

  /** Slack's timestamp id of the posted message; null until it is posted. */
  @Column('text', { nullable: true })
  ts!: string | null;

  /** The interrupt as its last change left it (trimmed, as the emails show it). */
  @Column('jsonb')
  data!: Record<string, unknown>;

  @Column('integer', { default: 1 })
  version!: number;

  @Column('integer', { default: 0 })
  postedVersion!: number;

  @Column('text', { default: 'pending' })
  status!: SlackMessageStatus;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  dueAt!: Date | null;

  @Column('integer', { default: 0 })
  attemptCount!: number;

  @Column('text', { nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
