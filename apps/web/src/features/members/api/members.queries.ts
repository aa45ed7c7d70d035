import {
  call,
  changeMemberRole,
  createInvitation,
  listInvitations,
  removeMember,
  withdrawInvitation,
  type CreateInvitationDto,
} from '@interlock/api-client';
import { useQuery } from '@tanstack/react-query';
import { directoryKeys } from '@/shared/directory/directory.queries';
import { useInvalidatingMutation } from '@/shared/utils/invalidating-mutation';
import { callById } from '@/shared/utils/call-by-id';

export const invitationKeys = {
  all: ['invitations'] as const,
  list: () => [...invitationKeys.all, 'list'] as const,
};

export function useChangeMemberRole() {
  return useInvalidatingMutation(
    ({ id, roleId }: { id: string; roleId: string }) =>
      call(changeMemberRole({ path: { id }, body: { roleId } })),
    [directoryKeys.members],
  );
}

export function useRemoveMember() {
  return useInvalidatingMutation(callById(removeMember), [
    directoryKeys.members,
    directoryKeys.teams,
  ]);
}

export function useInvitations() {
  return useQuery({
    queryKey: invitationKeys.list(),
    queryFn: async () => (await call(listInvitations())).invitations,
  });
}

export function useCreateInvitation() {
  return useInvalidatingMutation(
    (body: CreateInvitationDto) => call(createInvitation({ body })),
    [invitationKeys.all],
  );
}

/** Withdraws a pending invitation: its link stops working (member.invite). */
export function useWithdrawInvitation() {
  return useInvalidatingMutation(callById(withdrawInvitation), [invitationKeys.all]);
}
