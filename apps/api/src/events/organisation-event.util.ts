import type { AuditStreamRow } from '@interlock/audit';
import type { StreamEvent } from '@interlock/domain';
import { sseEvent } from '../http/sse-event.util';

/** The audit actions the event stream is made of; the session ones only for session.read. */
export const INTERRUPT_EVENT_ACTIONS = [
  'interrupt.created',
  'interrupt.decided',
  'interrupt.assigned',
  'interrupt.unassigned',
  'interrupt.escalated',
  'interrupt.expired',
  'interrupt.withdrawn',
  'interrupt.reminder',
  'interrupt.approval_added',
];
export const SESSION_EVENT_ACTIONS = ['session.started', 'session.ended', 'session.disconnected'];

/** An audit entry as the stream reads it (libs/audit's `auditEntriesAfter`). */
export type EventSourceRow = AuditStreamRow;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const count = (value: unknown): number => (typeof value === 'number' ? value : 0);
const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [];
/** The assignee an assignment entry names, its metadata keys prefixed (`assignee`, `previousAssignee`). */
const assigneeIn = (
  m: Record<string, unknown>,
  prefix: 'assignee' | 'previousAssignee',
): { type: 'member' | 'team'; id: string; name: string } => ({
  type: m[`${prefix}Type`] === 'team' ? 'team' : 'member',
  id: text(m[`${prefix}Id`]) ?? '',
  name: text(m[`${prefix}Name`]) ?? '',
});

/**
 * The events one audit entry makes, as SSE frames. A decision that answered its interrupt makes
 * two (`interrupt.decided`, then `interrupt.answered`): only the last carries the `id:` line, so
 * a client that lost the connection between them resumes before both rather than after one.
 */
export function eventFrames(row: EventSourceRow): string {
  const seq = Number(row.seq);
  const base = {
    seq,
    createdAt: row.created_at.toISOString(),
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
  };
  const m = row.metadata ?? {};
  const interrupt = { id: row.target_id ?? '', title: row.target_name ?? '' };
  const session = { id: row.target_id ?? '', name: row.target_name ?? '' };
  const events: StreamEvent[] = [];
  switch (row.action) {
    case 'interrupt.created':
      events.push({
        ...base,
        type: 'interrupt.created',
        interrupt,
        externalId: text(m.externalId),
        actionNames: Array.isArray(m.actionRequests)
          ? m.actionRequests.filter((a): a is string => typeof a === 'string')
          : [],
      });
      break;
    case 'interrupt.decided':
      events.push({
        ...base,
        type: 'interrupt.decided',
        interrupt,
        actionName: text(m.actionName) ?? '',
        decision: text(m.decision) ?? '',
        becameAnswered: m.becameAnswered === true,
      });
      if (m.becameAnswered === true)
        events.push({ ...base, type: 'interrupt.answered', interrupt });
      break;
    case 'interrupt.assigned':
      events.push({
        ...base,
        type: 'interrupt.assigned',
        interrupt,
        assignee: assigneeIn(m, 'assignee'),
      });
      break;
    case 'interrupt.unassigned':
      events.push({
        ...base,
        type: 'interrupt.unassigned',
        interrupt,
        previousAssignee: assigneeIn(m, 'previousAssignee'),
      });
      break;
    case 'interrupt.escalated':
      events.push({
        ...base,
        type: 'interrupt.escalated',
        interrupt,
        level: count(m.level),
        reason: text(m.reason),
      });
      break;
    case 'interrupt.expired':
      events.push({
        ...base,
        type: 'interrupt.expired',
        interrupt,
        outcome: text(m.outcome) ?? '',
        actionNames: names(m.actionNames),
      });
      break;
    case 'interrupt.withdrawn':
      events.push({ ...base, type: 'interrupt.withdrawn', interrupt, reason: text(m.reason) });
      break;
    case 'interrupt.reminder':
      events.push({
        ...base,
        type: 'interrupt.reminder',
        interrupt,
        step: count(m.step),
        assignee:
          text(m.assigneeId) === null
            ? null
            : {
                type: m.assigneeType === 'team' ? 'team' : 'member',
                id: text(m.assigneeId) ?? '',
                name: text(m.assigneeName) ?? '',
              },
      });
      break;
    case 'interrupt.approval_added':
      events.push({
        ...base,
        type: 'interrupt.approval_added',
        interrupt,
        actionName: text(m.actionName) ?? '',
        approvals: count(m.approvals),
        requiredApprovals: count(m.requiredApprovals),
      });
      break;
    case 'session.started':
      events.push({ ...base, type: 'session.started', session, externalId: text(m.externalId) });
      break;
    case 'session.ended':
    case 'session.disconnected':
      events.push({
        ...base,
        type: 'session.ended',
        session,
        status: row.action === 'session.ended' ? 'ended' : 'disconnected',
        messageCount: count(m.messageCount),
      });
      break;
    default:
      break;
  }
  return events
    .map((event, i) => sseEvent(event.type, event, i === events.length - 1 ? seq : undefined))
    .join('');
}
