import type { InterruptResponse } from '@interlock/api-client';
import { Button, Group, Text } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '@/shared/utils/errors';
import { holdApproval, undoApproval, UNDO_SECONDS } from '../api/held-approvals';

function describe(interrupts: InterruptResponse[]): string {
  return interrupts.length === 1 ? `“${interrupts[0].title}”` : `${interrupts.length} interrupts`;
}

/** Holds the approval (see held-approvals.ts) and shows it with its Undo button and countdown. */
export function approveWithUndo(interrupts: InterruptResponse[], queryClient: QueryClient): number {
  const what = describe(interrupts);
  let id = '';
  const key = holdApproval(interrupts, queryClient, {
    onSent: () =>
      notifications.update({
        id,
        color: 'teal',
        title: undefined,
        message: `Approved ${what}`,
        autoClose: 4000,
        withCloseButton: true,
      }),
    onFailed: (failures, approved) =>
      notifications.update({
        id,
        color: 'red',
        title:
          approved.length === 0
            ? `Could not approve ${what}`
            : `Approved ${approved.length}; ${failures.length} could not be approved`,
        message: failures.map((f) => `${f.interrupt.title}: ${errorMessage(f.error)}`).join(' · '),
        autoClose: 10_000,
        withCloseButton: true,
      }),
  });
  id = `held-approval-${key}`;
  notifications.show({
    id,
    color: 'teal',
    autoClose: false,
    withCloseButton: false,
    message: <HeldApprovalMessage what={what} onUndo={() => undo(key)} />,
  });
  return key;
}

/** Takes a held approval back (the Undo button, or `z` in the inbox). */
export function undo(key: number): void {
  const hold = undoApproval(key);
  if (hold === undefined) return;
  notifications.update({
    id: `held-approval-${key}`,
    color: 'gray',
    title: undefined,
    message: `Undone: ${describe(hold.interrupts)} was not sent.`,
    autoClose: 4000,
    withCloseButton: true,
  });
}

function HeldApprovalMessage({ what, onUndo }: { what: string; onUndo: () => void }) {
  const [left, setLeft] = useState(UNDO_SECONDS);
  const interval = useInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
  useEffect(() => {
    interval.start();
    return interval.stop;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Approving {what} {left > 0 ? `in ${left} s` : 'now'}
      </Text>
      {/* Full height (36 px): a target a thumb can hit on a phone. */}
      <Button size="sm" variant="light" onClick={onUndo} disabled={left === 0}>
        Undo
      </Button>
    </Group>
  );
}
