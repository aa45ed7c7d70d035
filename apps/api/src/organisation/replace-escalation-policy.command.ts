import type { MemberCall } from '../auth/caller';

/** One step of an escalation policy as a person gave it (the service fills in `when`, checks the rest). */
export interface EscalationStepInput {
  afterMinutes: number;
  action: 'remind' | 'escalate';
  when?: 'undecided' | 'unassigned';
  /** Only on an escalate step: a member or a team of the organisation. */
  assignTo?: { memberId?: string; teamId?: string } | null;
}

/**
 * Replace the organisation's escalation policy whole (SPEC §8e): the input of
 * `EscalationPolicyService.replace`, built by the REST controller from its validated body (the
 * `EscalationPolicyDto`'s steps are `EscalationStepInput`s). Plain values.
 */
export interface ReplaceEscalationPolicyCommand extends MemberCall {
  steps: readonly EscalationStepInput[];
}

/** Replace a team's escalation policy whole (SPEC §8e): `EscalationPolicyService.replaceForTeam`. */
export interface ReplaceTeamEscalationPolicyCommand extends ReplaceEscalationPolicyCommand {
  teamId: string;
}
