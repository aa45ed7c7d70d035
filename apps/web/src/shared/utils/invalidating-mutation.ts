import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A mutation whose success invalidates the queries it changes (ARCHITECTURE.md, "Server state is
 * cached, not copied"): `invalidates` names their keys, or gives them from the answer and the
 * variables.
 */
export function useInvalidatingMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  invalidates: readonly QueryKey[] | ((data: TData, variables: TVariables) => readonly QueryKey[]),
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (data, variables) =>
      Promise.all(
        (typeof invalidates === 'function' ? invalidates(data, variables) : invalidates).map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
