import type { WebhookResponse } from '@interlock/api-client';
import { Badge, Tooltip } from '@mantine/core';
import { dateTime } from '@/shared/utils/format';

/** Enabled, disabled, or enabled but failing every attempt since some time. */
export function WebhookStatusBadge({ webhook }: { webhook: WebhookResponse }) {
  if (!webhook.enabled)
    return (
      <Badge color="gray" miw="max-content">
        Disabled
      </Badge>
    );
  if (webhook.failingSince !== null) {
    return (
      <Tooltip
        label={`Every attempt has failed since ${dateTime(webhook.failingSince)}; after 5 days the webhook is disabled.`}
      >
        <Badge color="orange" miw="max-content">
          Failing
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Badge color="teal" miw="max-content">
      Enabled
    </Badge>
  );
}
