import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';

@Entity({ name: 'teams' })
@Index('teams_organisation_name_key', ['organisationId', 'name'], { unique: true })
export class TeamEntity extends OrganisationRow {
  @Column('text')
  name!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  /** The team's escalation policy, `{steps: [...]}`, for interrupts assigned to it; null: none (SPEC §8e). */
  @Column('jsonb', { nullable: true })
  escalationPolicy!: { steps: unknown[] } | null;
}
