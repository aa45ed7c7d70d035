import type { RoleResponse } from '@interlock/api-client';
import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { ListTable } from '@/shared/components/list-table';
import { RowActions } from '@/shared/components/row-actions';
import { useState } from 'react';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { confirmAction } from '@/shared/components/confirm';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { useRoles } from '@/shared/directory/directory.queries';
import { notifySuccess } from '@/shared/utils/notify';
import { useDeleteRole } from '../api/roles.queries';
import { ALL_PERMISSIONS, PERMISSION_GROUPS } from '../components/permission-groups';
import { RoleEditorModal } from '../components/role-editor-modal';

export function RolesRoute() {
  const roles = useRoles();
  const [editing, setEditing] = useState<RoleResponse | 'new' | null>(null);
  const remove = useDeleteRole();
  const confirmDelete = (role: RoleResponse) =>
    confirmAction({
      title: 'Delete this role?',
      body: (
        <Text size="sm">
          The role <strong>{role.name}</strong> will be deleted. A role that members still hold
          cannot be deleted: give them another role first.
        </Text>
      ),
      confirmLabel: 'Delete role',
      onConfirm: async () => {
        await remove.mutateAsync(role.id);
        notifySuccess(`Role ${role.name} deleted`);
      },
    });
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
          <ListTable
            label="Roles"
            columns={['Role', 'Permissions', { hidden: 'Actions' }]}
            minWidth={640}
          >
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
                    // Grouped, in words; what it allows and its own name are its tooltip.
                    <Stack gap={2}>
                      {PERMISSION_GROUPS.map((group) => {
                        const held = group.permissions.filter((p) =>
                          role.permissions.includes(p.value),
                        );
                        if (held.length === 0) return null;
                        return (
                          <Text key={group.label} size="sm">
                            <Text span size="sm" fw={600}>
                              {group.label}:
                            </Text>{' '}
                            {held.map((p, i) => (
                              <span key={p.value} title={`${p.description} (${p.value})`}>
                                {p.label}
                                {i < held.length - 1 ? ', ' : ''}
                              </span>
                            ))}
                          </Text>
                        );
                      })}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>
                  <RowActions
                    of={role.name}
                    actions={
                      role.builtIn === null
                        ? [
                            { label: 'Edit', onClick: () => setEditing(role) },
                            { label: 'Delete', onClick: () => confirmDelete(role), danger: true },
                          ]
                        : []
                    }
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        </Paper>
      )}
      <RoleEditorModal
        opened={editing !== null}
        role={editing === 'new' || editing === null ? undefined : editing}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
