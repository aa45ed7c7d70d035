import type { WebhookResponse } from '@interlock/api-client';
import { Button, Code, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { IntegrationsTabs } from '@/shared/components/integrations-tabs';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { notifyError, notifySuccess } from '@/shared/utils/notify';
import { useUpdateWebhook, useWebhooks } from '../api/webhooks.queries';
import { CreateWebhookModal } from '../components/create-webhook-modal';
import { WebhooksTable } from '../components/webhooks-table';
import { whenSettled } from '@/shared/utils/when-settled';

/** Integrations → Webhooks: endpoints that receive the organisation's events, signed. */
export function WebhooksRoute() {
  const webhooks = useWebhooks();
  const update = useUpdateWebhook();
  const [creating, setCreating] = useState(false);
  const toggle = (webhook: WebhookResponse, enabled: boolean) =>
    whenSettled(
      update.mutateAsync({ id: webhook.id, body: { enabled } }),
      () => notifySuccess(`${webhook.url} ${enabled ? 'enabled' : 'disabled'}`),
      (error) => notifyError(error),
    );

  return (
    <>
      <PageHeader
        title="Integrations"
        description="Webhooks send the organisation's events — interrupts opened, decided, answered, assigned, escalated; sessions started and ended — to your endpoints as they happen, signed the Standard Webhooks way and retried for about a day."
        actions={
          <Button onClick={() => setCreating(true)} data-autofocus>
            Add webhook
          </Button>
        }
      />
      <IntegrationsTabs active="webhooks">
        {webhooks.isPending ? (
          <CenteredLoader label="Loading webhooks" />
        ) : webhooks.isError ? (
          <QueryError error={webhooks.error} onRetry={() => void webhooks.refetch()} />
        ) : webhooks.data.length === 0 ? (
          <Paper withBorder p="lg">
            <EmptyHint title="No webhooks yet">
              <Stack align="center" gap="sm">
                <Text size="sm" c="dimmed" ta="center" maw={560}>
                  Add the URL of an endpoint of yours: it receives each event as a signed JSON POST,
                  so your agents learn that a human answered without polling. Verify each one with
                  the SDK:
                </Text>
                <Code block>
                  {
                    'const event = await client.webhooks.unwrap(rawBody, request.headers, process.env.INTERLOCK_WEBHOOK_SECRET);'
                  }
                </Code>
              </Stack>
            </EmptyHint>
          </Paper>
        ) : (
          <Paper withBorder>
            <WebhooksTable webhooks={webhooks.data} onToggle={toggle} />
          </Paper>
        )}
      </IntegrationsTabs>
      <CreateWebhookModal opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}
