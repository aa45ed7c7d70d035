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

export function StatusBadge({ status }: { status: InterruptResponse['status'] }) {
  return status === 'open' ? (
    <Badge variant="light" color="blue">
      Open
    </Badge>
  ) : (
    <Badge variant="light" color="teal">
      Answered
    </Badge>
  );
}
