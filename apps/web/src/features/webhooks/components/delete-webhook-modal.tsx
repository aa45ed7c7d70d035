import type { WebhookResponse } from '@interlock/api-client';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { FormError } from '../../../shared/components/form-error';
import { notifySuccess } from '../../../shared/utils/notify';
import { useDeleteWebhook } from '../api/webhooks.queries';

export function DeleteWebhookModal({ webhook, onClose, onDeleted }: { webhook: WebhookResponse | null; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteWebhook();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={webhook !== null} onClose={close} title="Delete this webhook?">
      <Stack>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          <strong>{webhook?.url}</strong> stops receiving events at once, and its deliveries are deleted with it. This cannot be undone.
        </Text>
        <FormError error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              webhook &&
              remove.mutate(webhook.id, {
                onSuccess: () => {
                  notifySuccess('Webhook deleted');
                  onDeleted();
                },
              })
            }
          >
            Delete webhook
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
