import type { CreateApiKeyDto } from '@interlock/api-client';
import { Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CreateShownOnceModal } from '@/shared/components/create-shown-once-modal';
import { ShownOnce } from '@/shared/components/secret-shown-once';
import { useCreateApiKey } from '../api/api-keys.queries';

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
  return (
    <CreateShownOnceModal
      opened={opened}
      onClose={onClose}
      form={form}
      create={create}
      body={(values) => ({ name: values.name.trim(), expiry: values.expiry })}
      title="Create an API key"
      shownTitle="Copy your new key"
      submitLabel="Create key"
      shown={(created, done) => (
        <ShownOnce
          value={created.key}
          noun="key"
          label={`Key “${created.name}”`}
          labelId="new-key-label"
          testId="new-api-key"
          onDone={done}
        >
          Copy it now and keep it in your agent&apos;s secret store. Interlock keeps only its first
          characters ({created.start}); if you lose it, revoke it and create another.
        </ShownOnce>
      )}
    >
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
    </CreateShownOnceModal>
  );
}
