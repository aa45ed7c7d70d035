import type { InterruptResponse } from '@interlock/api-client';
import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '@/shared/components/form-error';
import { useDecide, undecidedActions } from '../api/interrupts.queries';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';
import { useDialogMount } from '@/shared/components/dialog-mount';

/** `r` in the inbox: reject every undecided action of the interrupt, with a reason. */
export function RejectModal({
  interrupt,
  onClose,
  onDone,
}: {
  interrupt: InterruptResponse | null;
  onClose: () => void;
  onDone: (title: string) => void;
}) {
  const dialog = useDialogMount(interrupt !== null);
  const decide = useDecide();
  const [reason, setReason] = useState('');
  const reject = useMutation({
    mutationFn: async (it: InterruptResponse) => {
      for (const action of undecidedActions(it)) {
        await decide.mutateAsync({
          id: it.id,
          body: {
            actionName: action.name,
            decision: 'reject',
            message: reason.trim() === '' ? undefined : reason.trim(),
          },
        });
      }
    },
  });
  const close = () => {
    setReason('');
    reject.reset();
    onClose();
  };
  if (!dialog.mounted) return null;
  return (
    <Modal
      opened={dialog.opened}
      onExitTransitionEnd={dialog.onExitTransitionEnd}
      onClose={close}
      title={`Reject “${interrupt?.title ?? ''}”?`}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (interrupt)
            whenSettled(reject.mutateAsync(interrupt), () => {
              onDone(interrupt.title);
              close();
            });
        }}
      >
        <Stack>
          <Text size="sm">
            Rejects{' '}
            {interrupt
              ? undecidedActions(interrupt)
                  .map((a) => a.name)
                  .join(', ')
              : ''}
            . The agent receives the reason with each rejection.
          </Text>
          <Textarea
            label="Reason"
            description="Ctrl+Enter rejects."
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey))
                event.currentTarget.form?.requestSubmit();
            }}
            maxLength={10_000}
            autosize
            minRows={2}
            data-autofocus
          />
          <FormError error={reject.error} />
          <FormActions
            onCancel={close}
            pending={reject.isPending}
            submitLabel="Reject"
            color="red"
          />
        </Stack>
      </form>
    </Modal>
  );
}
