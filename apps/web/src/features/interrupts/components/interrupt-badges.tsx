import type { Assignee, InterruptResponse } from '@interlock/api-client';
import { Badge, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { Countdown, useNow } from '@/shared/components/countdown';
import { dateTime } from '@/shared/utils/format';

export function AssigneeBadge({ assignee }: { assignee: Assignee | null }) {
  if (assignee === null) return null;
  return (
    <Badge
      variant="light"
      color={assignee.type === 'team' ? 'grape' : 'cyan'}
      tt="none"
      aria-label={`Assigned to ${assignee.type === 'team' ? 'team ' : ''}${assignee.name}`}
    >
      {assignee.type === 'team' ? `Team ${assignee.name}` : assignee.name}
    </Badge>
  );
}

export function EscalationBadge({
  interrupt,
}: {
  interrupt: Pick<InterruptResponse, 'escalationLevel' | 'escalatedAt' | 'escalationReason'>;
}) {
  if (interrupt.escalationLevel === 0) return null;
  const label =
    interrupt.escalationLevel === 1 ? 'Escalated' : `Escalated ×${interrupt.escalationLevel}`;
  const detail = [
    interrupt.escalatedAt && `Last escalated ${dateTime(interrupt.escalatedAt)}`,
    interrupt.escalationReason,
  ]
    .filter(Boolean)
    .join(': ');
  return (
    <Tooltip label={detail || label} disabled={detail === ''}>
      <Badge variant="filled" color="red" tt="none">
        {label}
      </Badge>
    </Tooltip>
  );
}

const STATUS: Record<
  InterruptResponse['status'],
  { color: string; label: string; title?: string }
> = {
  open: { color: 'blue', label: 'Open' },
  answered: { color: 'teal', label: 'Answered' },
  expired: {
    color: 'orange',
    label: 'Expired',
    title: 'The deadline passed before every action was decided',
  },
  withdrawn: { color: 'gray', label: 'Withdrawn', title: 'The agent withdrew it' },
};

/** The interrupt's status (SPEC §8e), whole even in a narrow column. */
export function StatusBadge({ status }: { status: InterruptResponse['status'] }) {
  const look = STATUS[status];
  return (
    <Badge variant="light" color={look.color} miw="max-content" title={look.title}>
      {look.label}
    </Badge>
  );
}

/** How many approvals an action needs (SPEC §8e; a service before several approvers: one). */
export const requiredApprovalsOf = (action: { requiredApprovals?: number }) =>
  action.requiredApprovals ?? 1;

/**
 * The progress of an open interrupt's undecided actions that need several approvals: "1 of 2
 * approvals" (or, for several such actions, how many are still short). Nothing otherwise.
 */
export function ApprovalsBadge({
  interrupt,
}: {
  interrupt: Pick<InterruptResponse, 'status' | 'actionRequests' | 'decisions'>;
}) {
  if (interrupt.status !== 'open') return null;
  const waiting = interrupt.actionRequests.filter(
    (a) => requiredApprovalsOf(a) > 1 && !interrupt.decisions.some((d) => d.actionName === a.name),
  );
  if (waiting.length === 0) return null;
  const progress = (a: (typeof waiting)[number]) =>
    `${a.approvals?.length ?? 0} of ${requiredApprovalsOf(a)} approvals`;
  const label =
    waiting.length === 1 ? progress(waiting[0]) : `${waiting.length} actions need approvals`;
  return (
    <Tooltip label={waiting.map((a) => `${a.name}: ${progress(a)}`).join(' · ')}>
      <Badge variant="light" color="indigo" tt="none" data-approvals-badge="">
        {label}
      </Badge>
    </Tooltip>
  );
}

/** What a deadline does, in words (SPEC §8e). */
export function onTimeoutText(onTimeout: InterruptResponse['onTimeout']): string {
  switch (onTimeout) {
    case 'approve':
      return 'every undecided action is approved';
    case 'escalate':
      return 'the interrupt is escalated and its deadline extended once';
    default:
      return 'every undecided action is rejected';
  }
}

/**
 * The time left until an open interrupt's deadline, counting down: red in its last 5 minutes,
 * orange in its last hour. Nothing for an interrupt that is not open or has no deadline.
 */
export function DeadlineBadge({
  interrupt,
}: {
  interrupt: Pick<InterruptResponse, 'status' | 'expiresAt' | 'onTimeout'>;
}) {
  const now = useNow(15_000);
  const expiresAt = interrupt.expiresAt;
  if (interrupt.status !== 'open' || expiresAt === null || expiresAt === undefined) return null;
  const left = Date.parse(expiresAt) - now;
  const color = left <= 5 * 60_000 ? 'red' : left <= 3_600_000 ? 'orange' : 'gray';
  return (
    <Tooltip label={`Deadline ${dateTime(expiresAt)}: then ${onTimeoutText(interrupt.onTimeout)}.`}>
      <Badge variant="light" color={color} tt="none" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {left > 0 ? 'Due in ' : 'Due: '}
        <Countdown deadline={expiresAt} />
      </Badge>
    </Tooltip>
  );
}

/**
 * Who opened it, in a line: the key (its agent) as it was named then, and its session, linked for
 * a member who may watch sessions (issue 31 §1: agent context in the rows).
 */
export function AgentContext({
  interrupt,
  canWatch,
}: {
  interrupt: Pick<InterruptResponse, 'openedBy' | 'sessionId'>;
  canWatch: boolean;
}) {
  const { openedBy, sessionId } = interrupt;
  if (!openedBy && sessionId === null) return null;
  // Plain elements (one a row in the inbox): styled by inbox-table.css's secondary line.
  return (
    <div className="inbox-line" data-agent-context="">
      {openedBy && (
        <span title={`Opened with the API key “${openedBy.name}”`}>by {openedBy.name}</span>
      )}
      {openedBy && sessionId !== null && ' · '}
      {sessionId !== null &&
        (canWatch ? <Link to={`/sessions/${sessionId}`}>its session</Link> : 'in a session')}
    </div>
  );
}

const RISK: Record<NonNullable<InterruptResponse['risk']>, { color: string; label: string }> = {
  low: { color: 'gray', label: 'Low risk' },
  medium: { color: 'yellow', label: 'Medium risk' },
  high: { color: 'orange', label: 'High risk' },
  critical: { color: 'red', label: 'Critical risk' },
};

/**
 * What the organisation's external classifier said of the interrupt's actions (SPEC §8d): the
 * highest risk over the actions it answered for, its labels in the tooltip. Nothing when it
 * answered for none (no classifier, or it failed: a person decides, as ever).
 */
export function RiskBadge({
  interrupt,
}: {
  interrupt: Pick<InterruptResponse, 'risk' | 'labels' | 'classifierLabels'>;
}) {
  const risk = interrupt.risk;
  if (risk === null || risk === undefined) return null;
  const look = RISK[risk] ?? { color: 'gray', label: `Risk: ${risk}` };
  // The classifier's own (`labels` also holds the agent's, SPEC §8e); older records had only these.
  const labels = interrupt.classifierLabels ?? interrupt.labels ?? [];
  const detail =
    labels.length > 0
      ? `The classifier’s labels: ${labels.join(', ')}`
      : 'The classifier gave no labels';
  return (
    <Tooltip label={detail} multiline maw={320}>
      <Badge
        variant={risk === 'critical' ? 'filled' : 'light'}
        color={look.color}
        tt="none"
        miw="max-content"
        data-risk={risk}
      >
        {look.label}
      </Badge>
    </Tooltip>
  );
}

const PRIORITY: Record<
  Exclude<NonNullable<InterruptResponse['priority']>, 'normal'>,
  { color: string; label: string; variant: 'filled' | 'light' }
> = {
  urgent: { color: 'red', label: 'Urgent', variant: 'filled' },
  high: { color: 'orange', label: 'High priority', variant: 'light' },
  low: { color: 'gray', label: 'Low priority', variant: 'light' },
};

/**
 * The priority its agent (or a routing rule) gave it (SPEC §8e, routing at creation): a badge for
 * urgent, high and low; nothing for normal, so that most rows stay quiet.
 */
export function PriorityBadge({ interrupt }: { interrupt: Pick<InterruptResponse, 'priority'> }) {
  const priority = interrupt.priority;
  if (priority === undefined || priority === 'normal') return null;
  const look = PRIORITY[priority];
  return (
    <Badge
      variant={look.variant}
      color={look.color}
      tt="none"
      miw="max-content"
      data-priority={priority}
    >
      {look.label}
    </Badge>
  );
}

/** How many labels a row shows before "+N". */
export const ROW_LABELS = 3;

/**
 * Its labels (the agent's, then the classifier's) as small chips: the first `max`, then "+N"
 * with the rest in its title. Nothing without labels.
 */
export function LabelChips({
  interrupt,
  max = ROW_LABELS,
}: {
  interrupt: Pick<InterruptResponse, 'labels'>;
  max?: number;
}) {
  const labels = interrupt.labels ?? [];
  if (labels.length === 0) return null;
  const rest = labels.slice(max);
  return (
    <span className="label-chips" aria-label={`Labels: ${labels.join(', ')}`} role="list">
      {labels.slice(0, max).map((label) => (
        <span key={label} className="label-chip" role="listitem">
          {label}
        </span>
      ))}
      {rest.length > 0 && (
        <span className="label-chip label-chip-more" role="listitem" title={rest.join(', ')}>
          +{rest.length}
        </span>
      )}
    </span>
  );
}
