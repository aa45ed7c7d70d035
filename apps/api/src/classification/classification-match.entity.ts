import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationScopedRow } from '../organisation/organisation-row';
import { InterruptEntity } from '../interrupts/interrupt.entity';
import { ClassificationRuleEntity } from './classification-rule.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

/**
 * One rule matching one action request (SPEC §8d, statistics): written with the interrupt, and —
 * for a shadow rule — completed when a person decides the action, with whether argus would have
 * agreed. A rule's statistics are read from here; its rows go when the rule does, or when what
 * it matches or does changes (the figures are about the rule as it is).
 */
@Entity({ name: 'classification_matches' })
@Index('classification_matches_rule_idx', ['organisationId', 'ruleId', 'createdAt'])
@Index('classification_matches_action_idx', ['organisationId', 'interruptId', 'actionName'])
// The retention job's walk by age: a BRIN index, which TypeORM cannot compare (migration 1795772000000).
@Index('classification_matches_created_idx', { synchronize: false })
@Check('classification_matches_mode_check', `"mode" IN ('shadow', 'enforce')`)
export class ClassificationMatchEntity extends OrganisationScopedRow {
  @Column('uuid')
  ruleId!: string;

  @ReferencesInOrganisation(() => ClassificationRuleEntity, 'rule_id')
  rule?: ClassificationRuleEntity;

  @Column('uuid')
  interruptId!: string;

  @ReferencesInOrganisation(() => InterruptEntity, 'interrupt_id')
  interrupt?: InterruptEntity;

  @Column('text')
  actionName!: string;

  /** The rule's mode when it matched. */
  @Column('text')
  mode!: 'shadow' | 'enforce';

  /** What the rule does: approve, reject, route or require_human. */
  @Column('text')
  outcome!: string;

  /** Shadow: the rule would have decided the action (approve or reject, allowed by it). Enforce: it did. */
  @Column('boolean')
  decides!: boolean;

  /** The decision a person then made on the action (shadow matches only). */
  @Column('text', { nullable: true })
  personDecision!: string | null;

  /** The person's name at the time. */
  @Column('text', { nullable: true })
  personName!: string | null;

  /** Whether the rule would have decided as the person did (null: it would not have decided, or nobody has yet). */
  @Column('boolean', { nullable: true })
  agreed!: boolean | null;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  decidedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
