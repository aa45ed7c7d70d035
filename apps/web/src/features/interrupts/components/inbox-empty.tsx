import { Paper, Stack, Text } from '@mantine/core';
import type { Ref } from 'react';
import { AgentSnippet } from '@/shared/components/agent-snippet';
import { EmptyHint } from '@/shared/components/empty-hint';
import type { InboxTab } from '../api/interrupts.queries';

/**
 * What an empty inbox says: nothing matches, nothing waits (with how an agent asks), or the tab's
 * own words. Its heading (`headingRef`) takes the focus when the last row leaves with it.
 */
export function InboxEmpty({
  tab,
  filtered,
  headingRef,
}: {
  tab: InboxTab;
  filtered: boolean;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  return (
    <Paper withBorder p="lg">
      {filtered ? (
        <EmptyHint title="No interrupt matches" headingRef={headingRef}>
          <Text size="sm" c="dimmed">
            Try fewer words or another assignee filter.
          </Text>
        </EmptyHint>
      ) : tab === 'open' ? (
        <EmptyHint title="Nothing waits for a decision" headingRef={headingRef}>
          <Stack align="center" gap="sm">
            <Text size="sm" c="dimmed">
              When an agent opens an interrupt it appears here at once. With an API key
              (Integrations → Api Keys), an agent opens its first one like this:
            </Text>
            <AgentSnippet />
          </Stack>
        </EmptyHint>
      ) : (
        <EmptyHint
          headingRef={headingRef}
          title={
            tab === 'answered'
              ? 'Nothing answered yet'
              : tab === 'mine'
                ? 'Nothing is assigned to you'
                : 'Nothing is escalated'
          }
        >
          <Text size="sm" c="dimmed">
            {tab === 'answered'
              ? 'Decided interrupts land here.'
              : 'Open interrupts are in the Open tab.'}
          </Text>
        </EmptyHint>
      )}
    </Paper>
  );
}
