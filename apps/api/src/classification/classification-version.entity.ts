import { Column, Entity, PrimaryColumn } from 'typeorm';
import { References } from '../database/references.decorator';
import { OrganisationEntity } from '../organisation/organisation.entity';

/**
 * The version of what the rule cache keeps of an organisation (SPEC §8d "The rule cache"): a
 * counter every write of its rules or classifier raises in the writing transaction. The row lock
 * orders those writes, so the counter grows in commit order, which a timestamp does not (`now()`
 * is the transaction's start): a list read after version N reflects every change up to N.
 */
@Entity({ name: 'classification_versions' })
export class ClassificationVersionEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;

  @Column('bigint', { default: 0 })
  version!: string;
}
