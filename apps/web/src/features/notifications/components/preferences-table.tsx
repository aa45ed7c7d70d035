import type { NotificationPreferenceSet } from '@interlock/api-client';
import { Select, Table, Text } from '@mantine/core';
import { fieldWidthFor } from '@/shared/utils/field-width';

export const KINDS = [
  {
    kind: 'interrupt.opened',
    label: 'A new interrupt',
    hint: 'Anything an agent asks in this organisation',
  },
  { kind: 'interrupt.assigned', label: 'Assigned to you', hint: 'To you, or to a team of yours' },
  { kind: 'interrupt.escalated', label: 'Escalated', hint: 'An interrupt escalated' },
  {
    kind: 'interrupt.decided',
    label: 'Decided',
    hint: 'An interrupt assigned to you was answered',
  },
  {
    kind: 'interrupt.reminder',
    label: 'Reminder',
    hint: 'An interrupt still waits for you (its escalation chain reminds)',
  },
  {
    kind: 'interrupt.closed',
    label: 'Withdrawn or expired',
    hint: 'An interrupt that waited for you no longer does: who withdrew it and why, or its deadline passed',
  },
  {
    kind: 'interrupt.approval_needed',
    label: 'Your approval needed',
    hint: 'An action that needs several approvers got one approval short of them: yours would count',
  },
  {
    kind: 'interrupt.deadline_approaching',
    label: 'Deadline coming',
    hint: 'An interrupt that waits for you will soon be decided by its deadline',
  },
] as const;

type Kind = (typeof KINDS)[number]['kind'];
type Channel = 'email' | 'browser';

const MODES: Record<Channel, { value: string; label: string }[]> = {
  email: [
    { value: 'immediately', label: 'Immediately' },
    { value: 'hourly', label: 'Hourly digest' },
    { value: 'daily', label: 'Daily digest' },
    { value: 'off', label: 'Off' },
  ],
  browser: [
    { value: 'immediately', label: 'Immediately' },
    { value: 'off', label: 'Off' },
  ],
};

const labelOf = (channel: Channel, mode: string | undefined) =>
  MODES[channel].find((m) => m.value === mode)?.label ?? mode ?? '';

/**
 * One row per kind, a select per channel: a value of the set's own, or "Default (…)" (what
 * applies when the set leaves it out, shown from `fallback`).
 */
export function PreferencesTable({
  value,
  fallback,
  onChange,
  fallbackLabel,
  labelPrefix = '',
}: {
  value: NotificationPreferenceSet;
  fallback: NotificationPreferenceSet;
  onChange: (next: NotificationPreferenceSet) => void;
  fallbackLabel: string;
  /** Put before each select's accessible name, to tell two tables on one page apart. */
  labelPrefix?: string;
}) {
  const set = (kind: Kind, channel: Channel, mode: string | null) => {
    const modes = { ...(value[kind] ?? {}) } as Record<string, string | null>;
    if (mode === null) delete modes[channel];
    else modes[channel] = mode;
    const next = { ...value, [kind]: modes } as NotificationPreferenceSet;
    if (Object.keys(modes).length === 0) delete (next as Record<string, unknown>)[kind];
    onChange(next);
  };
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Email</Table.Th>
          <Table.Th>Browser</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {KINDS.map(({ kind, label, hint }) => (
          <Table.Tr key={kind}>
            <Table.Td>
              <Text size="sm" fw={500}>
                {label}
              </Text>
              <Text size="xs" c="dimmed">
                {hint}
              </Text>
            </Table.Td>
            {(['email', 'browser'] as const).map((channel) => {
              const data = [
                {
                  value: '__default',
                  label: `${fallbackLabel} (${labelOf(channel, fallback[kind]?.[channel] ?? undefined)})`,
                },
                ...MODES[channel],
              ];
              return (
                <Table.Td key={channel}>
                  <Select
                    aria-label={`${labelPrefix}${label}: ${channel}`}
                    size="xs"
                    allowDeselect={false}
                    value={value[kind]?.[channel] ?? '__default'}
                    onChange={(mode) =>
                      set(kind, channel, mode === '__default' || mode === null ? null : mode)
                    }
                    data={data}
                    // The column is as wide as the longest choice, so no value is cut off
                    // ("Default (Immediatel…" was).
                    styles={{ input: { minWidth: fieldWidthFor(data.map((d) => d.label)) } }}
                  />
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
