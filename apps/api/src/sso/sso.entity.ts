import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { OneRowPerOrganisation } from '../organisation/organisation-row';
import { UserEntity } from '../users/user.entity';
import { References } from '../database/references.decorator';

/**
 * An organisation's OpenID Connect provider (SPEC §8f, issue 33 §3): at most one. The client
 * secret is kept sealed (AES-256-GCM under a key derived from the server secret, bound to the
 * organisation); `defaultRoleId` is the role of a person provisioned at their first sign-in.
 */
@Entity({ name: 'sso_connections' })
export class SsoConnectionEntity extends OneRowPerOrganisation({
  primaryKey: 'sso_connections_pkey',
  foreignKey: 'sso_connections_organisation_id_fkey',
}) {
  @Column('text')
  issuer!: string;

  @Column('text')
  clientId!: string;

  @Column('bytea')
  clientSecretSealed!: Buffer;

  @Column('uuid')
  defaultRoleId!: string;

  /** Lower-case email domains this provider signs in (each also a row of `sso_domains`). */
  @Column('text', { array: true })
  allowedDomains!: string[];

  /** Password sign-in no longer acts for the organisation (its Owners' is the audited break-glass path). */
  @Column('boolean', { default: false })
  requireSso!: boolean;

  /** When this issuer and client id first signed someone in (null: never yet); requiring it needs one. */
  @Column('timestamptz', { nullable: true })
  verifiedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}

/**
 * Which organisation's provider signs in an email domain: read before any organisation is known
 * (a reference table, like `users`); only a domain its organisation proved by DNS signs anyone
 * in (SPEC §8f).
 */
@Entity({ name: 'sso_domains' })
@Index('sso_domains_organisation_id_idx', ['organisationId'])
@Index('sso_domains_verified_domain_key', ['domain'], {
  unique: true,
  where: 'verified_at IS NOT NULL',
})
export class SsoDomainEntity {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'sso_domains_pkey' })
  domain!: string;

  /** Several organisations may name a domain; one at most proves it (the partial unique index). */
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'sso_domains_pkey' })
  organisationId!: string;

  /** Published as `_interlock-challenge.<domain>` TXT `interlock-domain-verification=<token>`. */
  @Column('text')
  verificationToken!: string;

  /** When the TXT record was found (null: not proven, so the domain signs nobody in). */
  @Column('timestamptz', { nullable: true })
  verifiedAt!: Date | null;

  /** The latest periodic look-up of a proven domain's record (null: none since it was proven). */
  @Column('timestamptz', { nullable: true })
  lastCheckedAt!: Date | null;

  /** Periodic look-ups in a row that did not find the record; enough of them withdraw the proof. */
  @Column('integer', { default: 0 })
  failedChecks!: number;

  /**
   * When a periodic run last claimed the domain to look it up, answered or not: runs take the
   * longest-unattempted first, and record a look-up only while their claim is the latest.
   */
  @Column('timestamptz', { nullable: true })
  lastAttemptedAt!: Date | null;
}

/** A provider's subject (`iss`, `sub`) linked to a user, per organisation. */
@Entity({ name: 'sso_identities' })
export class SsoIdentityEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'sso_identities_pkey' })
  organisationId!: string;

  @PrimaryColumn('text', { primaryKeyConstraintName: 'sso_identities_pkey' })
  issuer!: string;

  @PrimaryColumn('text', { primaryKeyConstraintName: 'sso_identities_pkey' })
  subject!: string;

  @References(() => OrganisationEntity, 'organisation_id', {
    foreignKeyConstraintName: 'sso_identities_organisation_id_fkey',
  })
  organisation?: OrganisationEntity;

  @Column('uuid')
  userId!: string;

  @References(() => UserEntity, 'user_id', {
    foreignKeyConstraintName: 'sso_identities_user_id_fkey',
  })
  user?: UserEntity;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
