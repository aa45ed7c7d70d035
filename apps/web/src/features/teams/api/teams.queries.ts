import {
  addTeamMember,
  call,
  createTeam,
  deleteTeam,
  removeTeamMember,
  renameTeam,
} from '@interlock/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { directoryKeys } from '@/shared/directory/directory.queries';
import { callById } from '@/shared/utils/call-by-id';

function useInvalidateTeams() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: directoryKeys.teams });
}

export function useCreateTeam() {
  const onSuccess = useInvalidateTeams();
  return useMutation({
    mutationFn: (name: string) => call(createTeam({ body: { name } })),
    onSuccess,
  });
}

export function useRenameTeam() {
  const onSuccess = useInvalidateTeams();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      call(renameTeam({ path: { id }, body: { name } })),
    onSuccess,
  });
}

export function useDeleteTeam() {
  const onSuccess = useInvalidateTeams();
  return useMutation({ mutationFn: callById(deleteTeam), onSuccess });
}

export function useAddTeamMember() {
  const onSuccess = useInvalidateTeams();
  return useMutation({
    mutationFn: ({ teamId, memberId }: { teamId: string; memberId: string }) =>
      call(addTeamMember({ path: { id: teamId }, body: { memberId } })),
    onSuccess,
  });
}

export function useRemoveTeamMember() {
  const onSuccess = useInvalidateTeams();
  return useMutation({
    mutationFn: ({ teamId, memberId }: { teamId: string; memberId: string }) =>
      call(removeTeamMember({ path: { id: teamId, memberId } })),
    onSuccess,
  });
}
