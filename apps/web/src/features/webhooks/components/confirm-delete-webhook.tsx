import type { WebhookResponse } from '@interlock/api-client';
import { Text } from '@mantine/core';
import { confirmAction } from '@/shared/components/confirm';
import { notifySuccess } from '@/shared/utils/notify';
import { useDeleteWebhook } from '../api/webhooks.queries';

/** Deleting a webhook, confirmed first; `onDeleted` runs after it is gone. */
export function useConfirmDeleteWebhook(onDeleted: () => void): (webhook: WebhookResponse) => void {
  const remove = useDeleteWebhook();
  return (webhook) =>
    confirmAction({
      title: 'Delete this webhook?',
      body: (
        <Text size="sm">
          <strong>{webhook.url}</strong> stops receiving events at once, and its deliveries are
          deleted with it. This cannot be undone.
        </Text>
      ),
      confirmLabel: 'Delete webhook',
      onConfirm: async () => {
        await remove.mutateAsync(webhook.id);
        notifySuccess('Webhook deleted');
        onDeleted();
      },
    });
}
