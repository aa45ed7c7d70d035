import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationScopedRow } from '../organisation/organisation-row';
import { DECISIONS, type Decision, type DeciderType } from '@interlock/domain';
import { InterruptEntity } from './interrupt.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

// The decisions are the domain's (libs/domain); re-exported for the modules that read them here.
export { DECISIONS, type Decision };

/**
 * A decision on one action request, by a member, argus or the service (`decided_by_type`). One per
 * action: the unique index enforces it.
 */
@Entity({ name: 'interrupt_decisions' })
// Suggestions read an organisation's last 30 days of people's approvals and rejections
// (a partial index built CONCURRENTLY, which TypeORM cannot compare: migration 1795772000001).
@Index('interrupt_decisions_people_recent_idx', { synchronize: false })
@Index('interrupt_decisions_action_key', ['organisationId', 'interruptId', 'actionName'], {
  unique: true,
})
@Check(
  'interrupt_decisions_decision_check',
  `"decision" IN ('approve', 'edit', 'reject', 'respond')`,
)
@Check(
  'interrupt_decisions_decided_by_check',
  `("decided_by_type" = 'member' AND "decided_by_id" IS NOT NULL) OR ("decided_by_type" = 'argus' AND "decided_by_rule_id" IS NOT NULL) OR ("decided_by_type" = 'system' AND "decided_by_reason" IS NOT NULL)`,
)
export class InterruptDecisionEntity extends OrganisationScopedRow {
  @Column('uuid')
  interruptId!: string;

  @ReferencesInOrganisation(() => InterruptEntity, 'interrupt_id')
  interrupt?: InterruptEntity;

  @Column('text')
  actionName!: string;

  @Column('text')
  decision!: Decision;

  @Column('jsonb', { nullable: true })
  editedArgs!: Record<string, unknown> | null;

  /** With `edit`: the action to run instead, when the member renamed it. */
  @Column('text', { nullable: true })
  editedName!: string | null;

  @Column('text', { nullable: true })
  message!: string | null;

  /** With `respond` on an action that has a `responseSchema`: the typed answer, valid against it. */
  @Column('jsonb', { nullable: true })
  response!: Record<string, unknown> | null;

  /** Who decided: `member`, `argus` or `system` (libs/domain deciders.ts). */
  @Column('text', { default: 'member' })
  decidedByType!: DeciderType;

  /** The member who decided (no foreign key: members can leave); null for argus and system. */
  @Column('uuid', { nullable: true })
  decidedById!: string | null;

  /** The member's name at the time; `argus` or `system` for those. */
  @Column('text')
  decidedByName!: string;

  /** With argus: the classification rule that decided (no foreign key: rules can be deleted). */
  @Column('uuid', { nullable: true })
  decidedByRuleId!: string | null;

  /** With system: why the service decided (e.g. `timeout`). */
  @Column('text', { nullable: true })
  decidedByReason!: string | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  decidedAt!: Date;
}
