import type { InterruptResponse, Priority } from '@interlock/api-client';
import { Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { FormError } from '@/shared/components/form-error';
import { notifySuccess } from '@/shared/utils/notify';
import { whenSettled } from '@/shared/utils/when-settled';
import { PRIORITIES, useSetPriority } from '../api/interrupts.queries';
import { LabelChips, PriorityBadge } from './interrupt-badges';

const PRIORITY_NAMES: Record<Priority, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  urgent: 'Urgent',
};

/**
 * How urgent an interrupt is and its labels (SPEC §8e, routing at creation). A member who may
 * assign it (`interrupt.assign`: the priority is routing, as the assignee is) changes the priority
 * while it is open; labels are the agent's and the classifier's, and read-only.
 */
export function PriorityPanel({
  interrupt,
  canChange,
}: {
  interrupt: InterruptResponse;
  canChange: boolean;
}) {
  const setPriority = useSetPriority();
  const priority = interrupt.priority ?? 'normal';
  const labels = interrupt.labels ?? [];
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h5" id={headingId}>
          Priority and labels
        </Title>
        {canChange && interrupt.status === 'open' ? (
          <Select
            label="Priority"
            data={PRIORITIES.map((p) => ({ value: p, label: PRIORITY_NAMES[p] }))}
            value={priority}
            allowDeselect={false}
            disabled={setPriority.isPending}
            onChange={(value) => {
              if (value === null || value === priority) return;
              whenSettled(
                setPriority.mutateAsync({ id: interrupt.id, priority: value as Priority }),
                (updated) =>
                  notifySuccess(
                    `Priority set to ${PRIORITY_NAMES[updated.priority ?? 'normal'].toLowerCase()}`,
                  ),
              );
            }}
          />
        ) : (
          <Group gap="xs">
            <Text size="sm">Priority: {PRIORITY_NAMES[priority]}</Text>
            <PriorityBadge interrupt={interrupt} />
          </Group>
        )}
        <FormError error={setPriority.error} />
        {labels.length === 0 ? (
          <Text size="sm" c="dimmed">
            No labels
          </Text>
        ) : (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Labels
            </Text>
            <LabelChips interrupt={interrupt} max={labels.length} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
