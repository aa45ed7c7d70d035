import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DECISIONS, type Decision } from '@interlock/domain';
import { InterruptEntity } from './interrupt.entity';

// The decisions are the domain's (libs/domain); re-exported for the modules that read them here.
export { DECISIONS, type Decision };

/** A member's decision on one action request. One per action: the unique index enforces it. */
@Entity({ name: 'interrupt_decisions' })
@Index('interrupt_decisions_action_key', ['organisationId', 'interruptId', 'actionName'], { unique: true })
@Check('interrupt_decisions_decision_check', `"decision" IN ('approve', 'edit', 'reject', 'respond')`)
export class InterruptDecisionEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  interruptId!: string;

  @ManyToOne(() => InterruptEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'interrupt_id', referencedColumnName: 'id' },
  ])
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

  /** The member who decided, and their name at the time (no foreign key: members can leave). */
  @Column('uuid')
  decidedById!: string;

  @Column('text')
  decidedByName!: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  decidedAt!: Date;
}
