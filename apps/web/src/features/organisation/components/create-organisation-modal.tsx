import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { notifySuccess } from '@/shared/utils/notify';
import { useCreateOrganisation } from '../api/organisation.queries';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';
import { type DialogMount, useDialogMount } from '@/shared/components/dialog-mount';

/**
 * Another organisation for the signed-in person (a staging one beside production, a client's…),
 * which they own. The header's organisation menu holds it on every page: while closed it is not
 * mounted (no modal, form or mutation hooks in the first load of each page).
 */
export function CreateOrganisationModal({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  const dialog = useDialogMount(opened);
  return dialog.mounted && <CreateOrganisationDialog dialog={dialog} onClose={onClose} />;
}

function CreateOrganisationDialog({
  dialog,
  onClose,
}: {
  dialog: DialogMount;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const create = useCreateOrganisation();
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
      opened={dialog.opened}
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
