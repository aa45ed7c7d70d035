import { Column, Entity, Index } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';

/**
 * An organisation API key. The key itself is never stored: only its HMAC-SHA-256 under the
 * server pepper (`keyHash`) and its displayed start (prefix + 4 letters).
 */
@Entity({ name: 'api_keys' })
@Index('api_keys_key_hash_key', ['keyHash'], { unique: true })
@Index('api_keys_organisation_created_idx', ['organisationId', 'createdAt'])
export class ApiKeyEntity extends OrganisationRow {
  @Column('text')
  name!: string;

  @Column('text')
  start!: string;

  @Column('text')
  keyHash!: string;

  @Column('uuid', { nullable: true })
  createdBy!: string | null;

  /** Set by the application (not a database default) so expiresAt = createdAt + exactly N days. */
  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;
}
