import type { WebhookEventType, WebhookWithSecretResponse } from '@interlock/api-client';
import { Modal, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormError } from '@/shared/components/form-error';
import { useCreateWebhook } from '../api/webhooks.queries';
import { EventTypesField } from './event-types-field';
import { SecretShownOnce } from '@/shared/components/secret-shown-once';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';

export const URL_MAX = 2048;
export const DESCRIPTION_MAX = 500;

interface Values {
  url: string;
  description: string;
  eventTypes: string[] | null;
  enabled: boolean;
}

/** Add a webhook; then show its signing secret, this once. */
export function CreateWebhookModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateWebhook();
  const [created, setCreated] = useState<WebhookWithSecretResponse | null>(null);
  const form = useForm<Values>({
    initialValues: { url: '', description: '', eventTypes: null, enabled: true },
    validate: {
      url: (v) => (v.trim() === '' ? 'Give the URL that receives the events' : null),
      eventTypes: (v) =>
        v !== null && v.length === 0 ? 'Choose at least one event, or all' : null,
    },
  });
  const close = () => {
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? 'Copy the signing secret' : 'Add a webhook'}
      size="lg"
      closeOnClickOutside={!created}
    >
      {created ? (
        <SecretShownOnce
          secret={created.secret}
          label={`Signing secret of ${created.url}`}
          onDone={close}
        />
      ) : (
        <form
          onSubmit={form.onSubmit((values) =>
            whenSettled(
              create.mutateAsync({
                url: values.url.trim(),
                description: values.description.trim(),
                eventTypes: values.eventTypes as WebhookEventType[] | null,
                enabled: values.enabled,
              }),
              setCreated,
            ),
          )}
        >
          <Stack>
            <TextInput
              label="URL"
              description="Where Interlock POSTs each event: https (http only to this machine, outside production)."
              placeholder="https://agents.example.com/interlock/webhooks"
              maxLength={URL_MAX}
              required
              data-autofocus
              {...form.getInputProps('url')}
            />
            <Textarea
              label="Description"
              description="What receives the events (optional)."
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
            <Switch
              label="Enabled: send events as they happen"
              {...form.getInputProps('enabled', { type: 'checkbox' })}
            />
            <FormError error={create.error} />
            <FormActions onCancel={close} pending={create.isPending} submitLabel="Add webhook" />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
