import { Column, Entity, PrimaryColumn } from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { References } from '../database/references.decorator';

/**
 * An organisation's metered use in one UTC calendar month: the interrupt messages counter,
 * incremented atomically against the plan's allowance (SPEC §8). Agent hours are a running
 * total of their own (`agent_hours_totals`), since open sessions keep counting.
 */
@Entity({ name: 'usage_months' })
export class UsageMonthEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  /** The first day of the month (UTC). */
  @PrimaryColumn('date')
  month!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;

  @Column('integer', { default: 0 })
  messages!: number;
}
