import type { CreatedApiKeyResponse, CreateApiKeyDto } from '@interlock/api-client';
import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ShownOnce } from '@/shared/components/secret-shown-once';
import { FormError } from '@/shared/components/form-error';
import { useCreateApiKey } from '../api/api-keys.queries';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';

const EXPIRIES: { value: CreateApiKeyDto['expiry']; label: string }[] = [
  { value: 'never', label: 'Never' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
];

export const KEY_NAME_MAX = 32;

/** Create a key; then show it, in full, this once. */
export function CreateApiKeyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [created, setCreated] = useState<CreatedApiKeyResponse | null>(null);
  const form = useForm<{ name: string; expiry: CreateApiKeyDto['expiry'] }>({
    initialValues: { name: '', expiry: 'never' },
    validate: {
      name: (v) =>
        v.trim() === ''
          ? 'Name the key'
          : v.length > KEY_NAME_MAX
            ? `At most ${KEY_NAME_MAX} characters`
            : null,
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
      title={created ? 'Copy your new key' : 'Create an API key'}
      size="lg"
      closeOnClickOutside={!created}
    >
      {created ? (
        <ShownOnce
          value={created.key}
          noun="key"
          label={`Key “${created.name}”`}
          labelId="new-key-label"
          testId="new-api-key"
          onDone={close}
        >
          Copy it now and keep it in your agent&apos;s secret store. Interlock keeps only its first
          characters ({created.start}); if you lose it, revoke it and create another.
        </ShownOnce>
      ) : (
        <form
          onSubmit={form.onSubmit((values) =>
            whenSettled(
              create.mutateAsync({ name: values.name.trim(), expiry: values.expiry }),
              setCreated,
            ),
          )}
        >
          <Stack>
            <TextInput
              label="Name"
              description={`What uses it, e.g. "billing-agent" (up to ${KEY_NAME_MAX} characters)`}
              maxLength={KEY_NAME_MAX}
              required
              data-autofocus
              {...form.getInputProps('name')}
            />
            <Select
              label="Expires"
              description="Fixed at creation"
              data={EXPIRIES}
              allowDeselect={false}
              {...form.getInputProps('expiry')}
            />
            <FormError error={create.error} />
            <FormActions onCancel={close} pending={create.isPending} submitLabel="Create key" />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
