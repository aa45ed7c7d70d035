import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import type { RuleMatch, RuleMode, RuleOutcome } from './rule-engine';

/** One of an organisation's classification rules (SPEC §8d); argus reads them through RuleCache. */
@Entity({ name: 'classification_rules' })
@Check('classification_rules_mode_check', `"mode" IN ('off', 'shadow', 'enforce')`)
export class ClassificationRuleEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @ManyToOne(() => OrganisationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisation_id' })
  organisation?: OrganisationEntity;

  @Column('text')
  name!: string;

  @Column('text')
  mode!: RuleMode;

  @Column('integer')
  priority!: number;

  @Column('jsonb')
  match!: RuleMatch;

  @Column('jsonb')
  outcome!: RuleOutcome;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  expiresAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column('timestamp with time zone', { precision: 3, default: () => 'now()' })
  updatedAt!: Date;
}
