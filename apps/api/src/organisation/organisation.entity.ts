import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type Plan = 'free' | 'pro';

@Entity({ name: 'organisations' })
export class OrganisationEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column('text', { default: 'free' })
  plan!: Plan;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
