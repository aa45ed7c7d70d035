import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { notifySuccess } from '@/shared/utils/notify';
import { useCreateOrganisation } from '../api/organisation.queries';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';
import type { DialogMount } from '@/shared/components/dialog-mount';

/** The create-organisation dialog's body (create-organisation-modal.tsx mounts it while open). */
export default function CreateOrganisationDialog({
  dialog,
  onClose,
}: {
  dialog: DialogMount;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const create = useCreateOrganisation();
  // Drawn closed first, as useDialogMount intends (this code may arrive after it opened): Mantine
  // then records where focus goes back to and plays the opening transition.
  const [drawn, setDrawn] = useState(false);
  useEffect(() => setDrawn(true), []);
  const form = useForm({
    initialValues: { name: '' },
    validate: {
      name: (v) =>
        v.trim() === ''
          ? 'Name your organisation'
          : v.length > 100
            ? 'At most 100 characters'
            : null,
    },
  });
  const close = () => {
    form.reset();
    create.reset();
    onClose();
  };
  return (
    <Modal
      opened={dialog.opened && drawn}
      onClose={close}
      onExitTransitionEnd={dialog.onExitTransitionEnd}
      title="Create an organisation"
    >
      <form
        onSubmit={form.onSubmit((values) =>
          whenSettled(create.mutateAsync(values.name.trim()), (created) => {
            close();
            notifySuccess(`You now own ${created.organisation.name}`);
            void navigate('/integrations/api-keys?welcome=1');
            void create.switchTo(created.organisation.id);
          }),
        )}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            You become its Owner, on the Free plan. Your other organisations stay as they are;
            switch between them in the header.
          </Text>
          <TextInput
            label="Organisation name"
            data-autofocus
            required
            {...form.getInputProps('name')}
          />
          <FormError error={create.error} />
          <FormActions
            onCancel={close}
            pending={create.isPending}
            submitLabel="Create organisation"
          />
        </Stack>
      </form>
    </Modal>
  );
}
