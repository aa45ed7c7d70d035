import type { Allowance } from '@interlock/api-client';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { number } from '@/shared/utils/format';

/** This month's use of one allowance, or what a quota holds now. */
export function UsageBar({
  label,
  allowance,
  unit,
  format = number,
}: {
  label: string;
  allowance: Allowance;
  /** After the figures ("of 50 hours"); empty when `format` names the unit itself. */
  unit: string;
  format?: (value: number) => string;
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
          {`${format(allowance.used)} of ${format(allowance.included)}${unit === '' ? '' : ` ${unit}`}`}
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
