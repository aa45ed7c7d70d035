import {
  call,
  createRole,
  deleteRole,
  updateRole,
  type CreateRoleDto,
  type UpdateRoleDto,
} from '@interlock/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { directoryKeys } from '@/shared/directory/directory.queries';
import { signInSessionKey } from '@/shared/sign-in/sign-in-session.queries';
import { callById } from '@/shared/utils/call-by-id';

function useInvalidateRoles() {
  const queryClient = useQueryClient();
  // A role's permissions change what its members (perhaps the signed-in one) may do.
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: directoryKeys.roles }),
      queryClient.invalidateQueries({ queryKey: directoryKeys.members }),
      queryClient.invalidateQueries({ queryKey: [signInSessionKey[0]] }),
    ]);
}

export function useCreateRole() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: (body: CreateRoleDto) => call(createRole({ body })),
    onSuccess: invalidate,
  });
}

export function useUpdateRole() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateRoleDto }) =>
      call(updateRole({ path: { id }, body })),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: callById(deleteRole),
    onSuccess: invalidate,
  });
}
