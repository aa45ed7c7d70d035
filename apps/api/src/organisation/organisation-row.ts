import { JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { References } from '../database/references.decorator';
import { OrganisationEntity } from './organisation.entity';

/**
 * A row keyed by its organisation and its own id: the primary key (`organisation_id`, `id`) alone,
 * with no foreign key to the organisation — for a row that goes with another of the
 * organisation's rows (a decision with its interrupt) or that references none (an outbox event).
 * An entity extends it and declares its other columns; TypeORM reads inherited columns as the
 * entity's own, so the table is the one the migrations made (the database e2e's drift check
 * compares them).
 */
export abstract class OrganisationScopedRow {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;
}

/**
 * A row an organisation owns, by its own id: the primary key (`organisation_id`, `id`) and the
 * foreign key to the organisation (its rows go with it).
 */
export abstract class OrganisationRow extends OrganisationScopedRow {
  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;
}

/** Constraint names a migration chose, where it did not leave them to the database. */
export interface OrganisationKeyNames {
  primaryKey?: string;
  foreignKey?: string;
}

/**
 * The organisation's one row of a table (its Slack app, its SSO provider, its settings, its
 * totals): keyed by the organisation's id alone, which is also the one-to-one foreign key to the
 * organisation (its row goes with it). `names` are the constraints' names where the migration
 * named them. An entity extends what this returns and declares its other columns.
 */
export function OneRowPerOrganisation({ primaryKey, foreignKey }: OrganisationKeyNames = {}) {
  abstract class OrganisationKeyedRow {
    @PrimaryColumn('uuid', primaryKey === undefined ? {} : { primaryKeyConstraintName: primaryKey })
    organisationId!: string;

    @OneToOne(() => OrganisationEntity, { onDelete: 'CASCADE' })
    @JoinColumn(
      foreignKey === undefined
        ? { name: 'organisation_id' }
        : { name: 'organisation_id', foreignKeyConstraintName: foreignKey },
    )
    organisation?: OrganisationEntity;
  }
  return OrganisationKeyedRow;
}
