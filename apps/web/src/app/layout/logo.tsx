import { Group, Text } from '@mantine/core';

export function Logo() {
  return (
    <Group gap={6} wrap="nowrap" style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
      <img src="/favicon.svg" alt="" width={24} height={24} />
      <Text fw={700} size="lg">
        Interlock
      </Text>
    </Group>
  );
}
