import type { WebhookEventType, WebhookResponse } from '@interlock/api-client';
import { Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { FormError } from '@/shared/components/form-error';
import { notifySuccess } from '@/shared/utils/notify';
import { useUpdateWebhook } from '../api/webhooks.queries';
import { DESCRIPTION_MAX, URL_MAX } from './create-webhook-modal';
import { EventTypesField } from './event-types-field';
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
  const form = useForm<{ url: string; description: string; eventTypes: string[] | null }>({
    initialValues: { url: '', description: '', eventTypes: null },
    validate: {
      url: (v) => (v.trim() === '' ? 'Give the URL that receives the events' : null),
      eventTypes: (v) =>
        v !== null && v.length === 0 ? 'Choose at least one event, or all' : null,
    },
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
                update.mutateAsync({
                  id: webhook.id,
                  body: {
                    url: values.url.trim(),
                    description: values.description.trim(),
                    eventTypes: values.eventTypes as WebhookEventType[] | null,
                  },
                }),
                () => {
                  notifySuccess('Webhook saved');
                  close();
                },
              ),
        )}
      >
        <Stack>
          <TextInput
            label="URL"
            maxLength={URL_MAX}
            required
            data-autofocus
            {...form.getInputProps('url')}
          />
          <Textarea
            label="Description"
            maxLength={DESCRIPTION_MAX}
            autosize
            minRows={1}
            {...form.getInputProps('description')}
          />
          <EventTypesField
            value={form.values.eventTypes}
            onChange={(next) => form.setFieldValue('eventTypes', next)}
            error={form.errors.eventTypes as string | undefined}
          />
          <FormError error={update.error} />
          <FormActions onCancel={close} pending={update.isPending} submitLabel="Save" />
        </Stack>
      </form>
    </Modal>
  );
}
