import type { MemberResponse } from '@interlock/api-client';
import { Badge, Button, Group, Paper, Select, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { confirmAction } from '@/shared/components/confirm';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { ListTable } from '@/shared/components/list-table';
import { RelativeTime } from '@/shared/components/relative-time';
import { RowActions } from '@/shared/components/row-actions';
import { useMembers, useRoles } from '@/shared/directory/directory.queries';
import { useCan, useSignedIn } from '@/shared/sign-in/sign-in-session.queries';
import { notifyError, notifySuccess } from '@/shared/utils/notify';
import { useChangeMemberRole, useRemoveMember } from '../api/members.queries';
import { grantableRoleOptions, mayGrant } from '../components/grantable-roles';
import { whenSettled } from '@/shared/utils/when-settled';

/** Members: who is in the organisation, their role; change it or remove them. */
export function MembersRoute() {
  const { member: me, permissions } = useSignedIn();
  const members = useMembers();
  const canInvite = useCan('member.invite');
  const canListRoles = useCan('role.manage') || canInvite;
  const roles = useRoles({ enabled: canListRoles });
  const changeRole = useChangeMemberRole();
  // Nobody changes or removes a member holding a permission they lack, nor grants one (the API
  // refuses both): such a member's row offers nothing. Unknown without the roles: the API decides.
  const outranks = (m: MemberResponse) => {
    const role = roles.data?.find((r) => r.id === m.roleId);
    return m.id !== me.id && role !== undefined && !mayGrant(role, permissions);
  };
  const remove = useRemoveMember();
  const confirmRemove = (member: MemberResponse) =>
    confirmAction({
      title: 'Remove this member?',
      body: (
        <Text size="sm">
          <strong>{member.name}</strong> ({member.email}) will be signed out everywhere and can no
          longer sign in to this organisation. Decisions they made stay in the audit log.
        </Text>
      ),
      confirmLabel: 'Remove member',
      onConfirm: async () => {
        await remove.mutateAsync(member.id);
        notifySuccess(`${member.name} was removed`);
      },
    });

  return (
    <>
      <PageHeader
        title="Members"
        description="Everyone who can sign in to this organisation. A role decides what each member may do."
        actions={
          canInvite && (
            <Button component={Link} to="/invitations">
              Invite a member
            </Button>
          )
        }
      />
      {members.isPending ? (
        <CenteredLoader label="Loading members" />
      ) : members.isError ? (
        <QueryError error={members.error} onRetry={() => void members.refetch()} />
      ) : (
        <Paper withBorder>
          <ListTable
            label="Members"
            columns={['Name', 'Email', 'Role', 'Joined', { hidden: 'Actions' }]}
            minWidth={640}
          >
            {members.data.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>
                  <Group gap="xs">
                    <Text size="sm" fw={500}>
                      {m.name}
                    </Text>
                    {m.id === me.id && (
                      <Badge size="xs" variant="light">
                        You
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{m.email}</Text>
                </Table.Td>
                <Table.Td>
                  {roles.data && !outranks(m) ? (
                    <Select
                      aria-label={`Role of ${m.name}`}
                      size="xs"
                      w={180}
                      allowDeselect={false}
                      data={grantableRoleOptions(roles.data, permissions)}
                      value={m.roleId}
                      disabled={changeRole.isPending}
                      onChange={(roleId) =>
                        roleId &&
                        roleId !== m.roleId &&
                        whenSettled(
                          changeRole.mutateAsync({ id: m.id, roleId }),
                          (updated) => notifySuccess(`${updated.name} is now ${updated.roleName}`),
                          (error) => notifyError(error, `Could not change the role of ${m.name}`),
                        )
                      }
                    />
                  ) : (
                    <Text size="sm">{m.roleName}</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <RelativeTime value={m.createdAt} />
                </Table.Td>
                <Table.Td>
                  <RowActions
                    of={m.name}
                    actions={[
                      !outranks(m) && {
                        label: 'Remove',
                        onClick: () => confirmRemove(m),
                        danger: true,
                      },
                    ]}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        </Paper>
      )}
    </>
  );
}
