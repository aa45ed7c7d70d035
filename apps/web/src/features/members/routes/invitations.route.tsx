import { Badge, Paper, Stack, Table, Text } from '@mantine/core';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { useRoles } from '@/shared/directory/directory.queries';
import { useCan, useSignedIn } from '@/shared/sign-in/sign-in-session.queries';
import { useInvitations } from '../api/members.queries';
import { InviteMemberForm } from '../components/invite-member-form';

export function InvitationsRoute() {
  const { member } = useSignedIn();
  const invitations = useInvitations();
  // Listing roles needs member.invite or role.manage (docs/DECISIONS.md); should it fail to
  // list them, invite with one's own role (the API lets nobody grant more than they hold).
  const canInvite = useCan('member.invite');
  const canManageRoles = useCan('role.manage');
  const canListRoles = canInvite || canManageRoles;
  const roles = useRoles({ enabled: canListRoles });
  const roleOptions = roles.data
    ? roles.data.map((r) => ({ value: r.id, label: r.name }))
    : [{ value: member.roleId, label: 'Same role as you' }];
  const roleName = (id: string) =>
    roles.data?.find((r) => r.id === id)?.name ??
    (id === member.roleId ? 'Same role as you' : 'Another role');

  return (
    <>
      <PageHeader
        title="Invitations"
        description="Invite colleagues by email. Each invitation is a one-time link valid for seven days."
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
            <Table.ScrollContainer minWidth={600}>
              <Table verticalSpacing="sm" aria-label="Invitations">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Email</Table.Th>
                    <Table.Th scope="col">Role</Table.Th>
                    <Table.Th scope="col">Sent</Table.Th>
                    <Table.Th scope="col">Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
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
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </Stack>
    </>
  );
}
