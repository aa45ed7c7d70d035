import { call, disconnectSession } from '@interlock/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';

export const sessionKeys = {
  all: ['sessions'] as const,
};

export function useDisconnectSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(disconnectSession({ path: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
