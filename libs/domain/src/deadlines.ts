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

/** Where an interrupt stands in its escalation: what the service keeps on it (SPEC §8e). */
export interface EscalationState {
  createdAt: Date;
  /** Assigned to a team: its id (a team's policy governs while it holds the interrupt). */
  assigneeTeamId: string | null;
  /** When the assignee last changed; null: never since it opened. */
  assigneeChangedAt: Date | null;
  /** How many steps it passed of the policy `policyTeamId` names (null: the organisation's). */
  step: number;
  policyTeamId: string | null;
  /** From when that policy's minutes count; null: since it opened. */
  clockAt: Date | null;
}

/** The policy that governs an interrupt now, how many of its steps it passed, and from when they count. */
export interface EscalationPosition {
  /** The team whose policy governs, or null: the organisation's. */
  teamId: string | null;
  step: number;
  clock: Date;
}

/**
 * Which escalation policy governs an interrupt (SPEC §8e): the policy of the team it is assigned
 * to, when that team has one (`assigneeTeamHasPolicy`), else the organisation's. A policy's
 * minutes count from when the interrupt came under it — the organisation's from when it opened,
 * a team's from when it was assigned to the team — and it starts at its first step then: moving
 * to another policy (assigned to or away from a team with one, or back to the team after a time
 * away) starts that policy afresh, from when the assignee changed. The SQL of the escalation
 * job's due query says the same (interrupts.repository.ts escalationDue).
 */
export function escalationPosition(
  s: EscalationState,
  assigneeTeamHasPolicy: boolean,
): EscalationPosition {
  const teamId = assigneeTeamHasPolicy ? s.assigneeTeamId : null;
  const clock = s.clockAt ?? s.createdAt;
  const changed = s.assigneeChangedAt ?? s.createdAt;
  const moved =
    teamId !== s.policyTeamId || (teamId !== null && changed.getTime() > clock.getTime());
  return moved ? { teamId, step: 0, clock: changed } : { teamId, step: s.step, clock };
}

/**
 * Of the steps due at `now` that the interrupt has not passed, the last (its index), or -1 when
 * none is due: those before it pass silently (SPEC §8e).
 */
export function dueEscalationStep(
  steps: readonly EscalationStep[],
  position: EscalationPosition,
  now: Date,
): number {
  let last = -1;
  for (let i = position.step; i < steps.length; i++)
    if (position.clock.getTime() + steps[i].afterMinutes * 60_000 <= now.getTime()) last = i;
  return last;
}

/** SPEC §8h: the 'deadline coming' warning comes at least this long before the deadline… */
export const DEADLINE_WARNING_MIN_LEAD_MS = 60_000;
/** …at most this long before it… */
export const DEADLINE_WARNING_MAX_LEAD_MS = 3_600_000;
/** …and otherwise this share of the interrupt's whole time, from when it opened to its deadline. */
export const DEADLINE_WARNING_SHARE = 0.2;

/**
 * When an open interrupt's `interrupt.deadline_approaching` warning is due (SPEC §8h): at
 * `expiresAt − max(1 min, min(60 min, 20 % of (expiresAt − createdAt)))`. Null when the whole
 * time is at most twice the shortest lead (2 minutes): so short a wait is warned of by its
 * opening notification, a warning would come as it opens.
 */
export function deadlineWarningAt(createdAt: Date, expiresAt: Date): Date | null {
  const whole = expiresAt.getTime() - createdAt.getTime();
  if (whole <= 2 * DEADLINE_WARNING_MIN_LEAD_MS) return null;
  const lead = Math.max(
    DEADLINE_WARNING_MIN_LEAD_MS,
    Math.min(DEADLINE_WARNING_MAX_LEAD_MS, Math.round(whole * DEADLINE_WARNING_SHARE)),
  );
  return new Date(expiresAt.getTime() - lead);
}
