import type { MemberCall } from '../auth/caller';
import type { Decision } from './interrupt-decision.entity';

/**
 * One decision on one action of an interrupt (SPEC §6): the input of
 * `InterruptReviewService.decide`, built by the REST controller from its DTO; emailed action links
 * and Slack buttons build it too (without `actor`: `decideAuthorised` establishes the member
 * inside the transaction). Plain values, validated at each edge: no HTTP, no decorators.
 */
export interface DecideInterruptCommand extends MemberCall {
  interruptId: string;
  actionName: string;
  decision: Decision;
  /** With `edit`: the arguments the action should run with instead. */
  editedArgs?: Record<string, unknown>;
  /** With `edit`: the action to run instead (a rename). */
  editedName?: string;
  message?: string;
  /** With `respond` on an action that has a responseSchema: the typed answer. */
  response?: Record<string, unknown>;
}
