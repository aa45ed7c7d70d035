import type { Allowance } from '@interlock/api-client';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { number } from '../../../shared/utils/format';

/** This month's use of one allowance. */
export function UsageBar({
  label,
  allowance,
  unit,
}: {
  label: string;
  allowance: Allowance;
  unit: string;
}) {
  const id = useId();
  const percent =
    allowance.included === 0 ? 100 : Math.min(100, (allowance.used / allowance.included) * 100);
  const color = percent >= 100 ? 'red' : percent >= 80 ? 'orange' : 'blue';
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text fw={500} size="sm" id={id}>
          {label}
        </Text>
        <Text size="sm" c="dimmed" id={`${id}-used`}>
          {number(allowance.used)} of {number(allowance.included)} {unit}
        </Text>
      </Group>
      <Progress.Root size="lg">
        <Progress.Section
          value={percent}
          color={color}
          aria-labelledby={id}
          aria-describedby={`${id}-used`}
        />
      </Progress.Root>
    </Stack>
  );
}
