import { Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CreateShownOnceModal } from '@/shared/components/create-shown-once-modal';
import { SecretShownOnce } from '@/shared/components/secret-shown-once';
import { useCreateWebhook } from '../api/webhooks.queries';
import {
  WebhookFields,
  webhookFieldRules,
  webhookFieldsBody,
  type WebhookFieldValues,
} from './webhook-fields';

interface Values extends WebhookFieldValues {
  enabled: boolean;
}

/** Add a webhook; then show its signing secret, this once. */
export function CreateWebhookModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateWebhook();
  const form = useForm<Values>({
    initialValues: { url: '', description: '', eventTypes: null, enabled: true },
    validate: webhookFieldRules,
  });
  return (
    <CreateShownOnceModal
      opened={opened}
      onClose={onClose}
      form={form}
      create={create}
      body={(values) => ({ ...webhookFieldsBody(values), enabled: values.enabled })}
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
      <WebhookFields form={form} />
      <Switch
        label="Enabled: send events as they happen"
        {...form.getInputProps('enabled', { type: 'checkbox' })}
      />
    </CreateShownOnceModal>
  );
}
