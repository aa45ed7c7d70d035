/** SPEC §8e: a deadline is at most 30 days away, whatever an organisation sets. */
export const MAX_TIMEOUT_SECONDS = 2_592_000;

/**
 * An organisation's bounds on interrupt deadlines (SPEC §8e), as Settings shows and changes them:
 * the deadline an interrupt gets when its agent sets none (null: none), the longest one an agent
 * or a member may set, and whether an agent may ask for approval at the deadline.
 */
export interface InterruptDeadlineSettings {
  defaultTimeoutSeconds: number | null;
  maxTimeoutSeconds: number;
  approveOnTimeoutAllowed: boolean;
}

/** SPEC §8e: an escalation policy has at most this many steps. */
export const MAX_ESCALATION_STEPS = 10;
/** SPEC §8e: a step comes at most 30 days after the interrupt opened. */
export const MAX_ESCALATION_AFTER_MINUTES = 43_200;

/**
 * One step of an organisation's escalation policy (SPEC §8e): `afterMinutes` after an interrupt
 * opened, while it is still open (`when: undecided`) — or still open and nobody's
 * (`when: unassigned`) —, the service reminds the assignee or escalates the interrupt, as actor
 * `system`; an `escalate` step may assign it to a member or a team on the way.
 */
export interface EscalationStep {
  afterMinutes: number;
  action: 'remind' | 'escalate';
  when: 'undecided' | 'unassigned';
  assignTo: { memberId: string } | { teamId: string } | null;
}

/** An organisation's escalation policy: its steps, soonest first (none: no policy). */
export interface EscalationPolicy {
  steps: EscalationStep[];
}
