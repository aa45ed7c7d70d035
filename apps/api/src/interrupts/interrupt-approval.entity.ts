import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { InterruptEntity } from './interrupt.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

/**
 * A member's approval of an action that needs several (SPEC §8e, `requiredApprovals` above 1).
 * One per member and action (the primary key): the same member cannot approve twice. The
 * approval that completes the quorum also writes the action's decision (`interrupt_decisions`).
 */
@Entity({ name: 'interrupt_approvals' })
export class InterruptApprovalEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  interruptId!: string;

  @PrimaryColumn('text')
  actionName!: string;

  /** The member who approved (no foreign key: members can leave). */
  @PrimaryColumn('uuid')
  memberId!: string;

  @ReferencesInOrganisation(() => InterruptEntity, 'interrupt_id')
  interrupt?: InterruptEntity;

  /** The member's name at the time. */
  @Column('text')
  memberName!: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  approvedAt!: Date;
}
