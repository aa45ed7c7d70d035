import { PrimaryColumn } from 'typeorm';
import { References } from '../database/references.decorator';
import { OrganisationEntity } from './organisation.entity';

/**
 * A row an organisation owns, by its own id: the primary key (`organisation_id`, `id`) and the
 * foreign key to the organisation (its rows go with it). An entity extends it and declares its
 * other columns; TypeORM reads inherited columns as the entity's own, so the table is the one
 * the migrations made (the database e2e's drift check compares them).
 */
export abstract class OrganisationRow {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;
}
