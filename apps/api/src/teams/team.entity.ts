import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { References } from '../database/references.decorator';

@Entity({ name: 'teams' })
@Index('teams_organisation_name_key', ['organisationId', 'name'], { unique: true })
export class TeamEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;

  @Column('text')
  name!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  /** The team's escalation policy, `{steps: [...]}`, for interrupts assigned to it; null: none (SPEC §8e). */
  @Column('jsonb', { nullable: true })
  escalationPolicy!: { steps: unknown[] } | null;
}
