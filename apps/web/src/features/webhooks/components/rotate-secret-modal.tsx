import type { WebhookResponse, WebhookWithSecretResponse } from '@interlock/api-client';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormError } from '@/shared/components/form-error';
import { useRotateWebhookSecret } from '../api/webhooks.queries';
import { SecretShownOnce } from '@/shared/components/secret-shown-once';
import { whenSettled } from '@/shared/utils/when-settled';

/** Confirm, rotate, then show the new secret this once. */
export function RotateSecretModal({
  webhook,
  onClose,
}: {
  webhook: WebhookResponse | null;
  onClose: () => void;
}) {
  const rotate = useRotateWebhookSecret();
  const [rotated, setRotated] = useState<WebhookWithSecretResponse | null>(null);
  const close = () => {
    setRotated(null);
    rotate.reset();
    onClose();
  };
  return (
    <Modal
      opened={webhook !== null}
      onClose={close}
      title={rotated ? 'Copy the new signing secret' : 'Rotate the signing secret?'}
      size="lg"
      closeOnClickOutside={!rotated}
    >
      {rotated ? (
        <SecretShownOnce
          secret={rotated.secret}
          label={`New signing secret of ${rotated.url}`}
          onDone={close}
          note="For 24 hours deliveries carry two signatures, one with the previous secret and one with this one: update your receiver within that time."
        />
      ) : (
        <Stack>
          <Text size="sm">
            A new secret signs every delivery from now on. The current one keeps signing beside it
            for 24 hours, so your receiver keeps verifying while you update it.
          </Text>
          <FormError error={rotate.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button
              loading={rotate.isPending}
              onClick={() => webhook && whenSettled(rotate.mutateAsync(webhook.id), setRotated)}
            >
              Rotate secret
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
