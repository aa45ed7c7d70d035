import type {
  InterruptEscalation,
  InterruptHistoryEntry,
  NextEscalationStep,
} from '@interlock/api-client';
import { Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { useId } from 'react';
import { RelativeTime } from '@/shared/components/relative-time';
import { dateTime } from '@/shared/utils/format';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** "team Night shift" / "Grace Hopper" / fallback: an assignee as an audit entry names it. */
function who(type: unknown, name: unknown, fallback: string): string {
  const n = text(name);
  if (n === null) return fallback;
  return type === 'team' ? `team ${n}` : n;
}

/** One thing the service did by itself, in words (SPEC §8e's entries; others by their summary). */
export function describeSystemEntry(entry: InterruptHistoryEntry): string {
  const m = entry.metadata ?? {};
  switch (entry.action) {
    case 'interrupt.reminder': {
      const whose = text(m.teamName) === null ? '' : ` (policy of team ${text(m.teamName)})`;
      return `Step ${String(m.step)}${whose}: reminded ${who(m.assigneeType, m.assigneeName, 'its readers (nobody was assigned)')}`;
    }
    case 'interrupt.escalated':
      return `Escalated to level ${String(m.level)}: ${text(m.reason) ?? ''}`.trim();
    case 'interrupt.assigned':
      return `Handed from ${who(m.previousAssigneeType, m.previousAssigneeName, m.previousAssigneeType == null ? 'nobody' : 'its assignee')} to ${who(m.assigneeType, m.assigneeName, 'someone')}`;
    default:
      return entry.summary;
  }
}

/** The next step in words: what it will do, and when. */
function describeNext(next: NextEscalationStep, now: number): string {
  const what =
    next.action === 'remind'
      ? 'remind the assignee'
      : next.assignTo === null
        ? 'escalate'
        : `escalate to ${next.assignTo.type === 'team' ? `team ${next.assignTo.name}` : next.assignTo.name}`;
  const condition = next.when === 'unassigned' ? 'if still unassigned' : 'if still undecided';
  const due = Date.parse(next.dueAt) <= now ? 'due now' : `at ${dateTime(next.dueAt)}`;
  return `Step ${next.step}, ${due}: ${what} ${condition}.`;
}

/**
 * What the escalation policy did to the interrupt — reminders (whom, when), escalations, the
 * hand-overs they made — and its next step (SPEC §8e, `include=escalation`): for every member
 * who may read the interrupt, not only those who read the audit log.
 */
export function EscalationPanel({
  escalation,
  now = Date.now(),
}: {
  escalation: InterruptEscalation | undefined;
  now?: number;
}) {
  const headingId = useId();
  if (escalation === undefined) return null;
  const { entries, next, policy, team } = escalation;
  if (entries.length === 0 && next === null) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h5" id={headingId}>
          Reminders and escalations
        </Title>
        {entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            None yet.
          </Text>
        ) : (
          <Timeline bulletSize={12} lineWidth={2} active={entries.length - 1}>
            {entries.map((entry) => (
              <Timeline.Item
                key={entry.id}
                title={
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {describeSystemEntry(entry)}
                  </Text>
                }
              >
                <Text size="xs" c="dimmed">
                  <RelativeTime value={entry.createdAt} />
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
        {next !== null && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              Next
            </Text>{' '}
            (
            {policy === 'team' && team !== null
              ? `policy of team ${team.name}`
              : "organisation's policy"}
            ): {describeNext(next, now)}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
