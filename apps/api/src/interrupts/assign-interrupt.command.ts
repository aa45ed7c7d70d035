import type { MemberActor } from '@interlock/domain';
import type { Priority } from './interrupt.entity';

/**
 * Assign an interrupt to a member or a team of the organisation, or (`assignee: null`) to nobody
 * (SPEC §6): the input of `InterruptReviewService.assign`. The REST body's shape (`memberId`,
 * `teamId`, `memberId: null`) stays at the HTTP edge.
 */
export interface AssignInterruptCommand {
  organisationId: string;
  actor: MemberActor;
  interruptId: string;
  assignee: { type: 'member' | 'team'; id: string } | null;
  ip: string | null;
}

/** Change how urgent an interrupt is (SPEC §8e): the input of `InterruptReviewService.setPriority`. */
export interface SetPriorityCommand {
  organisationId: string;
  actor: MemberActor;
  interruptId: string;
  priority: Priority;
  ip: string | null;
}
