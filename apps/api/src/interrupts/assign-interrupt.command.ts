import type { MemberCall } from '../auth/caller';
import type { Priority } from './interrupt.entity';

/**
 * Assign an interrupt to a member or a team of the organisation, or (`assignee: null`) to nobody
 * (SPEC §6): the input of `InterruptReviewService.assign`. The REST body's shape (`memberId`,
 * `teamId`, `memberId: null`) stays at the HTTP edge.
 */
export interface AssignInterruptCommand extends MemberCall {
  interruptId: string;
  assignee: { type: 'member' | 'team'; id: string } | null;
}

/** Change how urgent an interrupt is (SPEC §8e): the input of `InterruptReviewService.setPriority`. */
export interface SetPriorityCommand extends MemberCall {
  interruptId: string;
  priority: Priority;
}
