import type { InterruptHistoryEntry } from '@interlock/api-client';
import { Paper, Text, Timeline, Title } from '@mantine/core';
import { RelativeTime } from '@/shared/components/relative-time';

/** The interrupt's audit entries, oldest first. */
export function HistoryTimeline({ history }: { history: InterruptHistoryEntry[] }) {
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h5" mb="sm">
        History
      </Title>
      <Timeline bulletSize={12} lineWidth={2} active={history.length - 1}>
        {history.map((entry) => (
          <Timeline.Item
            key={entry.id}
            title={
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {entry.summary}
              </Text>
            }
          >
            <Text size="xs" c="dimmed">
              {entry.actorName} · <RelativeTime value={entry.createdAt} />
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  );
}
