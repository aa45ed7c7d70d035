import { Check, Column, CreateDateColumn, Entity } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';
import type { RuleMatch, RuleMode, RuleOrigin, RuleOutcome, RulePause } from './rule-engine';

/** One of an organisation's classification rules (SPEC §8d); argus reads them through RuleCache. */
@Entity({ name: 'classification_rules' })
@Check('classification_rules_mode_check', `"mode" IN ('off', 'shadow', 'enforce')`)
@Check('classification_rules_origin_check', `"origin" IN ('member', 'always_allow', 'suggestion')`)
export class ClassificationRuleEntity extends OrganisationRow {
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

  /** Where the rule came from: the editor or API, "Always allow this", or a suggestion. */
  @Column('text', { default: 'member' })
  origin!: RuleOrigin;

  /** The interrupt "Always allow this" was pressed on. */
  @Column('uuid', { nullable: true })
  originInterruptId!: string | null;

  /** Set when a person's rejection paused the rule (mode off); cleared by the next mode change. */
  @Column('jsonb', { nullable: true })
  paused!: RulePause | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column('timestamp with time zone', { precision: 3, default: () => 'now()' })
  updatedAt!: Date;
}
