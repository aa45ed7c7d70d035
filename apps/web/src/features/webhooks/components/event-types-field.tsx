import { Checkbox, Radio, Stack } from '@mantine/core';
import { EVENT_TYPE_OPTIONS } from './event-types';

/** Every event (null), or a chosen set of types. */
export function EventTypesField({
  value,
  onChange,
  error,
}: {
  value: string[] | null;
  onChange: (next: string[] | null) => void;
  error?: string;
}) {
  return (
    <Stack gap="xs">
      <Radio.Group
        label="Events"
        value={value === null ? 'all' : 'some'}
        onChange={(choice) => onChange(choice === 'all' ? null : [])}
        error={error}
      >
        <Stack gap={6} mt={6}>
          <Radio value="all" label="All events, including ones added later" />
          <Radio value="some" label="Only these events" />
        </Stack>
      </Radio.Group>
      {value !== null && (
        <Checkbox.Group value={value} onChange={onChange} aria-label="Events to send" pl="lg">
          <Stack gap={6}>
            {EVENT_TYPE_OPTIONS.map((option) => (
              <Checkbox
                key={option.value}
                value={option.value}
                label={`${option.label} (${option.value})`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </Stack>
  );
}
