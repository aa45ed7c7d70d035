import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { OneRowPerOrganisation } from '../organisation/organisation-row';
import { MembershipEntity } from '../members/membership.entity';
import { References, ReferencesInOrganisation } from '../database/references.decorator';

/** An organisation's notification defaults (per kind and channel) and its action-link policy. */
@Entity({ name: 'notification_settings' })
export class NotificationSettingsEntity extends OneRowPerOrganisation() {
  /** `{kind: {channel: mode}}`; what is missing falls back to the built-in default. */
  @Column('jsonb', { default: {} })
  defaults!: Record<string, Record<string, string>>;

  /** Whether emailed action links may decide without signing in (a single-use signed token). */
  @Column('boolean', { default: false })
  tokenActions!: boolean;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}

/** One member's own notification preferences and time zone (for the daily digest). */
@Entity({ name: 'notification_member_settings' })
export class NotificationMemberSettingsEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  userId!: string;

  @ReferencesInOrganisation(() => MembershipEntity, 'user_id', { referenced: 'userId' })
  membership?: MembershipEntity;

  @Column('jsonb', { default: {} })
  preferences!: Record<string, Record<string, string>>;

  /** An IANA time zone name. */
  @Column('text', { default: 'UTC' })
  timeZone!: string;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}

/**
 * An emailed action link that was used (issue 30): a link decides once. Written in the decision's
 * transaction, keyed by the link's nonce; the link itself (the token) is never stored.
 */
@Entity({ name: 'notification_action_link_uses' })
export class NotificationActionLinkUseEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  nonce!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;

  @Column('uuid')
  interruptId!: string;

  @Column('uuid')
  userId!: string;

  @Column('text')
  actionName!: string;

  @Column('text')
  decision!: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  usedAt!: Date;
}
