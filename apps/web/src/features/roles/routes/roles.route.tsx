import type { RoleResponse } from '@interlock/api-client';
import { Badge, Button, Group, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { CenteredLoader } from '../../../shared/components/centered-loader';
import { FormError } from '../../../shared/components/form-error';
import { PageHeader } from '../../../shared/components/page-header';
import { QueryError } from '../../../shared/components/query-error';
import { useRoles } from '../../../shared/directory/directory.queries';
import { notifySuccess } from '../../../shared/utils/notify';
import { useDeleteRole } from '../api/roles.queries';
import { ALL_PERMISSIONS } from '../components/permission-groups';
import { RoleEditorModal } from '../components/role-editor-modal';

export function RolesRoute() {
  const roles = useRoles();
  const [editing, setEditing] = useState<RoleResponse | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RoleResponse | null>(null);
  return (
    <>
      <PageHeader
        title="Roles"
        description="Owner, Developer and Manager are built in. Custom roles hold any set of permissions you hold yourself."
        actions={<Button onClick={() => setEditing('new')}>Create custom role</Button>}
      />
      {roles.isPending ? (
        <CenteredLoader label="Loading roles" />
      ) : roles.isError ? (
        <QueryError error={roles.error} onRetry={() => void roles.refetch()} />
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" aria-label="Roles">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Role</Table.Th>
                  <Table.Th scope="col">Permissions</Table.Th>
                  <Table.Th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {roles.data.map((role) => (
                  <Table.Tr key={role.id}>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" fw={500}>
                          {role.name}
                        </Text>
                        {role.builtIn !== null && (
                          <Badge size="xs" variant="light" color="gray">
                            Built in
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {role.permissions.length === ALL_PERMISSIONS.length ? (
                        <Text size="sm">Every permission</Text>
                      ) : role.permissions.length === 0 ? (
                        <Text size="sm" c="dimmed">
                          None
                        </Text>
                      ) : (
                        <Group gap={4}>
                          {role.permissions.map((p) => (
                            <Badge key={p} size="sm" variant="outline" color="gray" tt="none">
                              {p}
                            </Badge>
                          ))}
                        </Group>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {role.builtIn === null && (
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="xs" variant="default" onClick={() => setEditing(role)} aria-label={`Edit ${role.name}`}>
                            Edit
                          </Button>
                          <Button size="xs" variant="light" color="red" onClick={() => setDeleting(role)} aria-label={`Delete ${role.name}`}>
                            Delete
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <RoleEditorModal opened={editing !== null} role={editing === 'new' || editing === null ? undefined : editing} onClose={() => setEditing(null)} />
      <DeleteRoleModal role={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

function DeleteRoleModal({ role, onClose }: { role: RoleResponse | null; onClose: () => void }) {
  const remove = useDeleteRole();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={role !== null} onClose={close} title="Delete this role?">
      <Stack>
        <Text size="sm">
          The role <strong>{role?.name}</strong> will be deleted. A role that members still hold cannot be deleted: give them another role first.
        </Text>
        <FormError error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              role &&
              remove.mutate(role.id, {
                onSuccess: () => {
                  notifySuccess(`Role ${role.name} deleted`);
                  close();
                },
              })
            }
          >
            Delete role
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
