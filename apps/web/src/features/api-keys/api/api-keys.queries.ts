import {
  call,
  createApiKey,
  renameApiKey,
  revokeApiKey,
  type CreateApiKeyDto,
} from '@interlock/api-client';
import { useQuery } from '@tanstack/react-query';
import { apiKeysListQuery } from '@/shared/onboarding/onboarding.queries';
import { useInvalidatingMutation } from '@/shared/utils/invalidating-mutation';
import { callById } from '@/shared/utils/call-by-id';

export const apiKeyKeys = { all: ['api-keys'] as const };

/** The keys (the getting-started steps read the same query: shared/onboarding). */
export function useApiKeys() {
  return useQuery(apiKeysListQuery);
}

export function useCreateApiKey() {
  return useInvalidatingMutation(
    (body: CreateApiKeyDto) => call(createApiKey({ body })),
    [apiKeyKeys.all],
  );
}

export function useRenameApiKey() {
  return useInvalidatingMutation(
    ({ id, name }: { id: string; name: string }) =>
      call(renameApiKey({ path: { id }, body: { name } })),
    [apiKeyKeys.all],
  );
}

export function useRevokeApiKey() {
  return useInvalidatingMutation(callById(revokeApiKey), [apiKeyKeys.all]);
}
