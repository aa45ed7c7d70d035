import type { InterruptResponse } from '@interlock/api-client';
import { Button, Group, Modal, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { JsonBlock } from '@/shared/components/json-block';
import { useDialogMount } from '@/shared/components/dialog-mount';
import { undecidedActions } from '../api/interrupts.queries';
import { UNDO_SECONDS } from '../api/held-approvals';

/**
 * `a` in the inbox: what would be approved — every undecided action with its arguments — before
 * anything is. Enter confirms (the Approve button has focus); the approval is then held for the
 * undo window.
 */
export function ApproveConfirmModal({
  interrupt,
  onClose,
  onConfirm,
}: {
  interrupt: InterruptResponse | null;
  onClose: () => void;
  onConfirm: (it: InterruptResponse) => void;
}) {
  const dialog = useDialogMount(interrupt !== null);
  if (!dialog.mounted) return null;
  const actions = interrupt ? undecidedActions(interrupt) : [];
  return (
    <Modal
      opened={dialog.opened}
      onExitTransitionEnd={dialog.onExitTransitionEnd}
      onClose={onClose}
      title={`Approve “${interrupt?.title ?? ''}”?`}
      size="lg"
      returnFocus={false}
    >
      <Stack gap="sm">
        <Text size="sm">
          {actions.length === 1 ? 'This action runs' : `These ${actions.length} actions run`} with
          the arguments the agent proposed. You can undo for {UNDO_SECONDS} seconds.
        </Text>
        <ScrollArea.Autosize mah="55dvh" type="auto" offsetScrollbars>
          <Stack gap="sm">
            {actions.map((action) => (
              <Stack key={action.name} gap={4}>
                <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
                  {action.name}
                </Title>
                <JsonBlock value={action.args} label={`Arguments of ${action.name}`} />
              </Stack>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="teal" data-autofocus onClick={() => interrupt && onConfirm(interrupt)}>
            Approve
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
