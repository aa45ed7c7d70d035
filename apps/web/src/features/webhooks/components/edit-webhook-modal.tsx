import type { WebhookResponse } from '@interlock/api-client';
import { Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { FormError } from '@/shared/components/form-error';
import { notifySuccess } from '@/shared/utils/notify';
import { useUpdateWebhook } from '../api/webhooks.queries';
import {
  WebhookFields,
  webhookFieldRules,
  webhookFieldsBody,
  type WebhookFieldValues,
} from './webhook-fields';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';

/** Change the URL, the description or the events. */
export function EditWebhookModal({
  webhook,
  onClose,
}: {
  webhook: WebhookResponse | null;
  onClose: () => void;
}) {
  const update = useUpdateWebhook();
  const form = useForm<WebhookFieldValues>({
    initialValues: { url: '', description: '', eventTypes: null },
    validate: webhookFieldRules,
  });
  useEffect(() => {
    if (webhook !== null)
      form.setValues({
        url: webhook.url,
        description: webhook.description,
        eventTypes: webhook.eventTypes,
      });
    // Reset only when another webhook is opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [webhook?.id]);
  const close = () => {
    update.reset();
    onClose();
  };
  return (
    <Modal opened={webhook !== null} onClose={close} title="Edit webhook" size="lg">
      <form
        onSubmit={form.onSubmit((values) =>
          webhook === null
            ? undefined
            : whenSettled(
                update.mutateAsync({ id: webhook.id, body: webhookFieldsBody(values) }),
                () => {
                  notifySuccess('Webhook saved');
                  close();
                },
              ),
        )}
      >
        <Stack>
          <WebhookFields form={form} />
          <FormError error={update.error} />
          <FormActions onCancel={close} pending={update.isPending} submitLabel="Save" />
        </Stack>
      </form>
    </Modal>
  );
}
