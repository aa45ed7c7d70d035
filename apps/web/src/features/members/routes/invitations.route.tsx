import { Badge, Paper, Stack, Table, Text } from '@mantine/core';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { confirmAction } from '@/shared/components/confirm';
import { EmptyHint } from '@/shared/components/empty-hint';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { ListTable } from '@/shared/components/list-table';
import { RelativeTime } from '@/shared/components/relative-time';
import { RowActions } from '@/shared/components/row-actions';
import { useRoles } from '@/shared/directory/directory.queries';
import { useCan, useSignedIn } from '@/shared/sign-in/sign-in-session.queries';
import { notifySuccess } from '@/shared/utils/notify';
import { useInvitations, useWithdrawInvitation } from '../api/members.queries';
import { grantableRoleOptions } from '../components/grantable-roles';
import { InviteMemberForm } from '../components/invite-member-form';

export function InvitationsRoute() {
  const { member, permissions } = useSignedIn();
  const invitations = useInvitations();
  const withdraw = useWithdrawInvitation();
  // Listing roles needs member.invite or role.manage (docs/DECISIONS.md); should it fail to
  // list them, invite with one's own role (the API lets nobody grant more than they hold).
  const canInvite = useCan('member.invite');
  const canManageRoles = useCan('role.manage');
  const canListRoles = canInvite || canManageRoles;
  const roles = useRoles({ enabled: canListRoles });
  // Only the roles this member may grant: the API refuses one holding more than they do.
  const roleOptions = roles.data
    ? grantableRoleOptions(roles.data, permissions)
    : [{ value: member.roleId, label: 'Same role as you' }];
  const confirmWithdraw = (invitation: { id: string; email: string }) =>
    confirmAction({
      title: 'Withdraw this invitation?',
      body: (
        <Text size="sm">
          The link sent to <strong>{invitation.email}</strong> stops working. You can invite them
          again later.
        </Text>
      ),
      confirmLabel: 'Withdraw invitation',
      onConfirm: () =>
        withdraw
          .mutateAsync(invitation.id)
          .then(() => notifySuccess(`The invitation to ${invitation.email} was withdrawn`)),
    });
  const roleName = (id: string) =>
    roles.data?.find((r) => r.id === id)?.name ??
    (id === member.roleId ? 'Same role as you' : 'Another role');

  return (
    <>
      <PageHeader
        title="Invitations"
        description="Invite colleagues by email. Each invitation is a one-time link valid for seven days; withdraw a pending one to stop its link."
      />
      <Stack>
        {(roles.isSuccess || !canListRoles) && <InviteMemberForm roleOptions={roleOptions} />}
        {invitations.isPending ? (
          <CenteredLoader label="Loading invitations" />
        ) : invitations.isError ? (
          <QueryError error={invitations.error} onRetry={() => void invitations.refetch()} />
        ) : invitations.data.length === 0 ? (
          <EmptyHint title="No invitations yet">
            <Text size="sm" c="dimmed">
              Invite a colleague above, then send them the link.
            </Text>
          </EmptyHint>
        ) : (
          <Paper withBorder>
            <ListTable
              label="Invitations"
              columns={['Email', 'Role', 'Sent', 'Status', canInvite && { hidden: 'Actions' }]}
              minWidth={600}
            >
              {invitations.data.map((inv) => {
                const expired =
                  inv.acceptedAt === null && new Date(inv.expiresAt).getTime() < Date.now();
                return (
                  <Table.Tr key={inv.id}>
                    <Table.Td>{inv.email}</Table.Td>
                    <Table.Td>{roleName(inv.roleId)}</Table.Td>
                    <Table.Td>
                      <RelativeTime value={inv.createdAt} />
                    </Table.Td>
                    <Table.Td>
                      {inv.acceptedAt !== null ? (
                        <Badge color="teal" variant="light">
                          Accepted
                        </Badge>
                      ) : expired ? (
                        <Badge color="gray" variant="light">
                          Expired
                        </Badge>
                      ) : (
                        <Text size="sm">
                          Pending, expires <RelativeTime value={inv.expiresAt} />
                        </Text>
                      )}
                    </Table.Td>
                    {canInvite && (
                      <Table.Td>
                        <RowActions
                          of={`the invitation to ${inv.email}`}
                          actions={[
                            inv.acceptedAt === null &&
                              !expired && {
                                label: 'Withdraw',
                                onClick: () => confirmWithdraw(inv),
                                danger: true,
                              },
                          ]}
                        />
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </ListTable>
          </Paper>
        )}
      </Stack>
    </>
  );
}
