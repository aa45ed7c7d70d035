import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { References } from '../database/references.decorator';

/**
 * An `Idempotency-Key` an organisation used in the last 24 hours, with the fingerprint of the
 * request it came with and the response to replay. Claimed and completed inside the transaction
 * of the write it guards, so a key never outlives a write that rolled back.
 */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_organisation_created_idx', ['organisationId', 'createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('text')
  key!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;

  /** SHA-256 of the method, path and canonical JSON body. */
  @Column('text')
  fingerprint!: string;

  @Column('integer', { nullable: true })
  responseStatus!: number | null;

  /** The response body exactly as first sent (text, not jsonb, so it replays byte for byte). */
  @Column('text', { nullable: true })
  responseBody!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
