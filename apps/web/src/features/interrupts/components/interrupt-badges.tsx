import type { Assignee, InterruptResponse } from '@interlock/api-client';
import { Badge, Tooltip } from '@mantine/core';
import { dateTime } from '../../../shared/utils/format';

export function AssigneeBadge({ assignee }: { assignee: Assignee | null }) {
  if (assignee === null) return null;
  return (
    <Badge variant="light" color={assignee.type === 'team' ? 'grape' : 'cyan'} tt="none" aria-label={`Assigned to ${assignee.type === 'team' ? 'team ' : ''}${assignee.name}`}>
      {assignee.type === 'team' ? `Team ${assignee.name}` : assignee.name}
    </Badge>
  );
}

export function EscalationBadge({ interrupt }: { interrupt: Pick<InterruptResponse, 'escalationLevel' | 'escalatedAt' | 'escalationReason'> }) {
  if (interrupt.escalationLevel === 0) return null;
  const label = interrupt.escalationLevel === 1 ? 'Escalated' : `Escalated ×${interrupt.escalationLevel}`;
  const detail = [interrupt.escalatedAt && `Last escalated ${dateTime(interrupt.escalatedAt)}`, interrupt.escalationReason].filter(Boolean).join(': ');
  return (
    <Tooltip label={detail || label} disabled={detail === ''}>
      <Badge variant="filled" color="red" tt="none">
        {label}
      </Badge>
    </Tooltip>
  );
}

const STATUS: Record<InterruptResponse['status'], { color: string; label: string; title?: string }> = {
  open: { color: 'blue', label: 'Open' },
  answered: { color: 'teal', label: 'Answered' },
  expired: { color: 'orange', label: 'Expired', title: 'The deadline passed before every action was decided' },
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
