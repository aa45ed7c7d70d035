import type { WebhookEventType } from '@interlock/api-client';
import { TextInput, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { EventTypesField } from './event-types-field';

export const URL_MAX = 2048;
export const DESCRIPTION_MAX = 500;

/** What the create and the edit dialogs both ask of a webhook. */
export interface WebhookFieldValues {
  url: string;
  description: string;
  eventTypes: string[] | null;
}

/** The checks of those fields, for `useForm`'s `validate`. */
export const webhookFieldRules = {
  url: (v: string) => (v.trim() === '' ? 'Give the URL that receives the events' : null),
  eventTypes: (v: string[] | null) =>
    v !== null && v.length === 0 ? 'Choose at least one event, or all' : null,
};

/** Those fields as a create or an update body sends them. */
export function webhookFieldsBody(values: WebhookFieldValues) {
  return {
    url: values.url.trim(),
    description: values.description.trim(),
    eventTypes: values.eventTypes as WebhookEventType[] | null,
  };
}

/** A webhook's URL, description and events, with their help texts (create and edit dialogs). */
export function WebhookFields({ form }: { form: UseFormReturnType<WebhookFieldValues> }) {
  return (
    <>
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
    </>
  );
}
