import { call, confirmEmailChange, undoEmailChange } from '@interlock/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/** Uses the link emailed to the new address (SPEC §8f); whoever is signed in reads anew. */
export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(confirmEmailChange({ body: { token } })),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** "This wasn't me": the old address's link restores it with a new password; everyone is signed out. */
export function useUndoEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => call(undoEmailChange({ body })),
    onSuccess: () => queryClient.clear(),
  });
}
