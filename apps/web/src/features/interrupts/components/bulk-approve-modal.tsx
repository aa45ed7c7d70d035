import type { InterruptResponse } from '@interlock/api-client';
import { Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { UNDO_SECONDS } from '../api/held-approvals';
import { undecidedActions } from '../api/interrupts.queries';
import { useDialogMount } from '@/shared/components/dialog-mount';

/** Bulk approve: the list scrolls inside the dialog so its buttons stay in view, whatever the selection. */
export function BulkApproveModal({
  opened,
  chosen,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  /** The interrupts to approve, read only while the dialog is mounted. */
  chosen: () => InterruptResponse[];
  onClose: () => void;
  onConfirm: (interrupts: InterruptResponse[]) => void;
}) {
  const dialog = useDialogMount(opened);
  if (!dialog.mounted) return null;
  const interrupts = chosen();
  return (
    <Modal
      opened={dialog.opened}
      onExitTransitionEnd={dialog.onExitTransitionEnd}
      onClose={onClose}
      title={`Approve ${interrupts.length} interrupt${interrupts.length === 1 ? '' : 's'}?`}
    >
      <Stack>
        <Text size="sm">
          Every undecided action of these is approved with the arguments the agent proposed. You can
          undo for {UNDO_SECONDS} seconds.
        </Text>
        <ScrollArea.Autosize mah="50dvh" type="auto" offsetScrollbars>
          <Stack gap={2} component="ul" pl="md" m={0}>
            {interrupts.map((it) => (
              <Text key={it.id} size="sm" component="li" style={{ overflowWrap: 'anywhere' }}>
                {it.title} (
                {undecidedActions(it)
                  .map((a) => a.name)
                  .join(', ')}
                )
              </Text>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="teal"
            onClick={() => onConfirm(interrupts)}
            disabled={interrupts.length === 0}
          >
            Approve all
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
