import {
  call,
  changeMemberRole,
  createInvitation,
  listInvitations,
  removeMember,
  type CreateInvitationDto,
} from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { directoryKeys } from '@/shared/directory/directory.queries';

export const invitationKeys = {
  all: ['invitations'] as const,
  list: () => [...invitationKeys.all, 'list'] as const,
};

export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, roleId }: { id: string; roleId: string }) =>
      call(changeMemberRole({ path: { id }, body: { roleId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: directoryKeys.members }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(removeMember({ path: { id } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: directoryKeys.members }),
        queryClient.invalidateQueries({ queryKey: directoryKeys.teams }),
      ]),
  });
}

export function useInvitations() {
  return useQuery({
    queryKey: invitationKeys.list(),
    queryFn: async () => (await call(listInvitations())).invitations,
  });
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitationDto) => call(createInvitation({ body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}
