import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Plan } from '@interlock/domain';

@Entity({ name: 'organisations' })
@Check('organisations_plan_check', `"plan" IN ('free', 'pro')`)
export class OrganisationEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column('text', { default: 'free' })
  plan!: Plan;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
