import type { ApiKeyResponse } from '@interlock/api-client';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { FormError } from '../../../shared/components/form-error';
import { notifySuccess } from '../../../shared/utils/notify';
import { useRevokeApiKey } from '../api/api-keys.queries';

export function RevokeApiKeyModal({ apiKey, onClose }: { apiKey: ApiKeyResponse | null; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <Modal opened={apiKey !== null} onClose={close} title="Revoke this key?">
      <Stack>
        <Text size="sm">
          Revoking <strong>{apiKey?.name}</strong> ({apiKey?.start}…) takes effect at once: every agent that uses it gets{' '}
          <code>401 Invalid API key.</code> from its next call. This cannot be undone.
        </Text>
        <FormError error={revoke.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            loading={revoke.isPending}
            onClick={() =>
              apiKey &&
              revoke.mutate(apiKey.id, {
                onSuccess: () => {
                  notifySuccess(`Key ${apiKey.name} revoked`);
                  close();
                },
              })
            }
          >
            Revoke key
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
