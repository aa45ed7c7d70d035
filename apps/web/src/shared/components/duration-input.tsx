import { Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { DURATION_UNITS, type DurationUnit, splitDuration, toSeconds } from '../utils/duration';

/**
 * A length of time in minutes, hours or days, held as seconds. `label` names the number field; the
 * unit's select is labelled "<label> unit".
 */
export function DurationInput({
  label,
  seconds,
  onChange,
  disabled,
  description,
}: {
  label: string;
  seconds: number;
  onChange: (seconds: number) => void;
  disabled?: boolean;
  description?: string;
}) {
  const { amount, unit } = splitDuration(seconds);
  const descriptionId = useId();
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <NumberInput
          label={label}
          aria-describedby={description === undefined ? undefined : descriptionId}
          value={amount}
          min={1}
          allowDecimal={false}
          disabled={disabled}
          onChange={(value) =>
            typeof value === 'number' && value > 0 && onChange(toSeconds(value, unit))
          }
          maw={200}
          miw={0}
          style={{ flex: '1 1 8rem' }}
        />
        <Select
          aria-label={`${label} unit`}
          data={DURATION_UNITS.map((u) => ({ value: u.value, label: u.label }))}
          value={unit}
          allowDeselect={false}
          disabled={disabled}
          onChange={(next) =>
            next !== null &&
            onChange(toSeconds(Math.max(1, Math.round(amount)), next as DurationUnit))
          }
          w={120}
          style={{ flex: 'none' }}
        />
      </Group>
      {description !== undefined && (
        <Text id={descriptionId} size="xs" c="dimmed" maw={560}>
          {description}
        </Text>
      )}
    </Stack>
  );
}
