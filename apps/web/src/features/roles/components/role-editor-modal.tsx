import type { Permission, RoleResponse } from '@interlock/api-client';
import { Checkbox, Fieldset, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { FormError } from '@/shared/components/form-error';
import { useSignedIn } from '@/shared/sign-in/sign-in-session.queries';
import { notifySuccess } from '@/shared/utils/notify';
import { useCreateRole, useUpdateRole } from '../api/roles.queries';
import { PERMISSION_GROUPS } from './permission-groups';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';

/** Create a custom role (role = undefined) or edit one: a name and permission checkboxes. */
export function RoleEditorModal({
  opened,
  role,
  onClose,
}: {
  opened: boolean;
  role?: RoleResponse;
  onClose: () => void;
}) {
  const { permissions: held } = useSignedIn();
  const create = useCreateRole();
  const update = useUpdateRole();
  const mutation = role ? update : create;
  const form = useForm<{ name: string; permissions: Permission[] }>({
    initialValues: { name: '', permissions: [] },
    validate: {
      name: (v) =>
        v.trim() === '' ? 'Name the role' : v.length > 50 ? 'At most 50 characters' : null,
    },
  });
  const { setValues } = form;
  useEffect(() => {
    if (opened) setValues({ name: role?.name ?? '', permissions: role?.permissions ?? [] });
  }, [opened, role, setValues]);
  const close = () => {
    create.reset();
    update.reset();
    onClose();
  };
  const submit = form.onSubmit((values) => {
    const body = { name: values.name.trim(), permissions: values.permissions };
    const done = (saved: RoleResponse) => {
      notifySuccess(role ? `Role ${saved.name} saved` : `Role ${saved.name} created`);
      close();
    };
    whenSettled(role ? update.mutateAsync({ id: role.id, body }) : create.mutateAsync(body), done);
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={role ? `Edit role ${role.name}` : 'Create a custom role'}
      size="xl"
    >
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Role name"
            maxLength={50}
            required
            data-autofocus
            {...form.getInputProps('name')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {PERMISSION_GROUPS.map((group) => (
              <Fieldset key={group.label} legend={group.label} variant="filled">
                <Stack gap="xs">
                  {group.permissions.map((p) => {
                    const mayGrant = held.includes(p.value);
                    return (
                      <Checkbox
                        key={p.value}
                        label={p.label}
                        description={
                          mayGrant
                            ? `${p.description} (${p.value})`
                            : `${p.description} (${p.value}) You do not hold it, so you cannot grant it.`
                        }
                        disabled={!mayGrant && !form.values.permissions.includes(p.value)}
                        checked={form.values.permissions.includes(p.value)}
                        onChange={(event) =>
                          form.setFieldValue(
                            'permissions',
                            event.currentTarget.checked
                              ? [...form.values.permissions, p.value]
                              : form.values.permissions.filter((x) => x !== p.value),
                          )
                        }
                      />
                    );
                  })}
                </Stack>
              </Fieldset>
            ))}
          </SimpleGrid>
          <FormError error={mutation.error} />
          <FormActions
            onCancel={close}
            pending={mutation.isPending}
            submitLabel={role ? 'Save role' : 'Create role'}
          />
        </Stack>
      </form>
    </Modal>
  );
}
