import type { ApiKeyResponse } from '@interlock/api-client';
import { Text } from '@mantine/core';
import { confirmAction } from '@/shared/components/confirm';
import { notifySuccess } from '@/shared/utils/notify';
import { useRevokeApiKey } from '../api/api-keys.queries';

/** Revoking a key, confirmed first: what asks for it. */
export function useConfirmRevokeApiKey(): (apiKey: ApiKeyResponse) => void {
  const revoke = useRevokeApiKey();
  return (apiKey) =>
    confirmAction({
      title: 'Revoke this key?',
      body: (
        <Text size="sm">
          Revoking <strong>{apiKey.name}</strong> ({apiKey.start}…) takes effect at once: every
          agent that uses it gets <code>401 Invalid API key.</code> from its next call. This cannot
          be undone.
        </Text>
      ),
      confirmLabel: 'Revoke key',
      onConfirm: async () => {
        await revoke.mutateAsync(apiKey.id);
        notifySuccess(`Key ${apiKey.name} revoked`);
      },
    });
}
