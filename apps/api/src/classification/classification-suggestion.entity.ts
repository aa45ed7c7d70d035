import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';
import { ClassificationRuleEntity } from './classification-rule.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

/**
 * What a person said of one suggestion (SPEC §8d, suggestions): dismissed — never suggested
 * again — or applied, with the rule it made (the row goes with that rule, so a deleted rule's
 * suggestion may come back while the evidence holds). Suggestions themselves are not stored:
 * they are read from the last 30 days of decisions. The row's `id` is the suggestion's, derived
 * from (key, action name, argument shape).
 */
@Entity({ name: 'classification_suggestions' })
@Index(
  'classification_suggestions_subject_key',
  ['organisationId', 'keyId', 'actionName', 'shape'],
  {
    unique: true,
  },
)
@Check('classification_suggestions_status_check', `"status" IN ('dismissed', 'applied')`)
export class ClassificationSuggestionEntity extends OrganisationRow {
  @Column('uuid')
  keyId!: string;

  @Column('text')
  actionName!: string;

  /** Each top-level argument's name and JSON type, e.g. {"amount": "number"}. */
  @Column('jsonb')
  shape!: Record<string, string>;

  @Column('text')
  status!: 'dismissed' | 'applied';

  /** The rule an applied suggestion made. */
  @Column('uuid', { nullable: true })
  ruleId!: string | null;

  @ReferencesInOrganisation(() => ClassificationRuleEntity, 'rule_id')
  rule?: ClassificationRuleEntity;

  /** The member who applied or dismissed it, and their name at the time. */
  @Column('uuid')
  decidedById!: string;

  @Column('text')
  decidedByName!: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
