import type { WebhookEventType } from '@interlock/api-client';
import { Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CreateShownOnceModal } from '@/shared/components/create-shown-once-modal';
import { SecretShownOnce } from '@/shared/components/secret-shown-once';
import { useCreateWebhook } from '../api/webhooks.queries';
import { EventTypesField } from './event-types-field';

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
  const form = useForm<Values>({
    initialValues: { url: '', description: '', eventTypes: null, enabled: true },
    validate: {
      url: (v) => (v.trim() === '' ? 'Give the URL that receives the events' : null),
      eventTypes: (v) =>
        v !== null && v.length === 0 ? 'Choose at least one event, or all' : null,
    },
  });
  return (
    <CreateShownOnceModal
      opened={opened}
      onClose={onClose}
      form={form}
      create={create}
      body={(values) => ({
        url: values.url.trim(),
        description: values.description.trim(),
        eventTypes: values.eventTypes as WebhookEventType[] | null,
        enabled: values.enabled,
      })}
      title="Add a webhook"
      shownTitle="Copy the signing secret"
      submitLabel="Add webhook"
      shown={(created, done) => (
        <SecretShownOnce
          secret={created.secret}
          label={`Signing secret of ${created.url}`}
          onDone={done}
        />
      )}
    >
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
    </CreateShownOnceModal>
  );
}
