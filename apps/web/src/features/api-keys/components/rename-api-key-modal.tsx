import type { ApiKeyResponse } from '@interlock/api-client';
import { Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { FormError } from '@/shared/components/form-error';
import { notifySuccess } from '@/shared/utils/notify';
import { useRenameApiKey } from '../api/api-keys.queries';
import { KEY_NAME_MAX } from './create-api-key-modal';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';

export function RenameApiKeyModal({
  apiKey,
  onClose,
}: {
  apiKey: ApiKeyResponse | null;
  onClose: () => void;
}) {
  const rename = useRenameApiKey();
  const form = useForm({
    initialValues: { name: '' },
    validate: {
      name: (v) =>
        v.trim() === ''
          ? 'Name the key'
          : v.length > KEY_NAME_MAX
            ? `At most ${KEY_NAME_MAX} characters`
            : null,
    },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (apiKey) {
      setValues({ name: apiKey.name });
      resetDirty({ name: apiKey.name });
    }
  }, [apiKey, setValues, resetDirty]);
  const close = () => {
    rename.reset();
    onClose();
  };
  return (
    <Modal opened={apiKey !== null} onClose={close} title={`Rename key ${apiKey?.start ?? ''}…`}>
      <form
        onSubmit={form.onSubmit((values) =>
          whenSettled(
            rename.mutateAsync({ id: apiKey?.id ?? '', name: values.name.trim() }),
            (key) => {
              notifySuccess(`Key renamed to ${key.name}`);
              close();
            },
          ),
        )}
      >
        <Stack>
          <TextInput
            label="Name"
            maxLength={KEY_NAME_MAX}
            required
            data-autofocus
            {...form.getInputProps('name')}
          />
          <FormError error={rename.error} />
          <FormActions onCancel={close} pending={rename.isPending} submitLabel="Save" />
        </Stack>
      </form>
    </Modal>
  );
}
