import {
  call,
  createApiKey,
  renameApiKey,
  revokeApiKey,
  type CreateApiKeyDto,
} from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeysListQuery } from '@/shared/onboarding/onboarding.queries';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

/** The keys (the getting-started steps read the same query: shared/onboarding). */
export function useApiKeys() {
  return useQuery(apiKeysListQuery);
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyDto) => call(createApiKey({ body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRenameApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      call(renameApiKey({ path: { id }, body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(revokeApiKey({ path: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
