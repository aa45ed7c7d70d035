import { Text } from '@mantine/core';

/**
 * A table cell's second line, under its main text (a webhook's description, a session's external
 * id, a Slack message's last error): small and dimmed, and nothing at all when there is none.
 */
export function CellNote({ text }: { text: string | null }) {
  if (text === null || text === '') return null;
  return (
    <Text size="xs" c="dimmed">
      {text}
    </Text>
  );
}
