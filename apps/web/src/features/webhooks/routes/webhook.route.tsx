import type { WebhookDeliveryResponse } from '@interlock/api-client';
import { Anchor, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { notifyError, notifySuccess } from '@/shared/utils/notify';
import {
  useRetryDelivery,
  useSendTestEvent,
  useUpdateWebhook,
  useWebhook,
  useWebhookDeliveries,
} from '../api/webhooks.queries';
import { useConfirmDeleteWebhook } from '../components/confirm-delete-webhook';
import { DeliveriesTable } from '../components/deliveries-table';
import { EditWebhookModal } from '../components/edit-webhook-modal';
import { describeEventTypes } from '../components/event-types';
import { RotateSecretModal } from '../components/rotate-secret-modal';
import { WebhookStatusBadge } from '../components/webhook-status-badge';
import { whenSettled } from '@/shared/utils/when-settled';
import { LoadMore } from '@/shared/components/load-more';

/** One webhook: its settings, test, rotate, enable / disable, and its deliveries with retry. */
export function WebhookRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const webhook = useWebhook(id);
  const deliveries = useWebhookDeliveries(id);
  const update = useUpdateWebhook();
  const test = useSendTestEvent();
  const retry = useRetryDelivery();
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const confirmDelete = useConfirmDeleteWebhook(() => void navigate('/integrations/webhooks'));
  const rows = useMemo(
    () => deliveries.data?.pages.flatMap((p) => p.deliveries) ?? [],
    [deliveries.data],
  );

  if (webhook.isPending) return <CenteredLoader label="Loading the webhook" />;
  if (webhook.isError)
    return <QueryError error={webhook.error} onRetry={() => void webhook.refetch()} />;
  const hook = webhook.data;

  const sendTest = () =>
    whenSettled(
      test.mutateAsync(hook.id),
      () => notifySuccess('Test event queued'),
      (error) => notifyError(error),
    );
  const retryOne = (delivery: WebhookDeliveryResponse) =>
    whenSettled(
      retry.mutateAsync({ webhookId: hook.id, deliveryId: delivery.id }),
      () => notifySuccess('Delivery queued again'),
      (error) => notifyError(error),
    );

  return (
    <>
      <Anchor component={Link} to="/integrations/webhooks" size="sm">
        ← Webhooks
      </Anchor>
      <PageHeader
        title="Webhook"
        description={<span style={{ wordBreak: 'break-all' }}>{hook.url}</span>}
        actions={
          <>
            <Button onClick={sendTest} loading={test.isPending}>
              Send test event
            </Button>
            <Button variant="default" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="default" onClick={() => setRotating(true)}>
              Rotate secret
            </Button>
            <Button variant="light" color="red" onClick={() => confirmDelete(hook)}>
              Delete
            </Button>
          </>
        }
      />
      <Stack>
        <Paper withBorder p="md">
          <Group gap="xl" align="flex-start">
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                Status
              </Text>
              <WebhookStatusBadge webhook={hook} />
            </Stack>
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                Events
              </Text>
              <Text size="sm">{describeEventTypes(hook.eventTypes)}</Text>
            </Stack>
            {hook.description !== '' && (
              <Stack gap={4}>
                <Text size="xs" c="dimmed">
                  Description
                </Text>
                <Text size="sm">{hook.description}</Text>
              </Stack>
            )}
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                Created
              </Text>
              <RelativeTime value={hook.createdAt} />
            </Stack>
            {hook.previousSecretExpiresAt !== null && (
              <Stack gap={4}>
                <Text size="xs" c="dimmed">
                  Previous secret signs until
                </Text>
                <RelativeTime value={hook.previousSecretExpiresAt} />
              </Stack>
            )}
            <Switch
              label="Enabled"
              checked={hook.enabled}
              onChange={(event) =>
                whenSettled(
                  update.mutateAsync({
                    id: hook.id,
                    body: { enabled: event.currentTarget.checked },
                  }),
                  () => undefined,
                  (error) => notifyError(error),
                )
              }
            />
          </Group>
        </Paper>
        <Title order={2} size="h4">
          Deliveries
        </Title>
        {deliveries.isPending ? (
          <CenteredLoader label="Loading deliveries" />
        ) : deliveries.isError ? (
          <QueryError error={deliveries.error} onRetry={() => void deliveries.refetch()} />
        ) : rows.length === 0 ? (
          <Paper withBorder p="lg">
            <EmptyHint title="No deliveries yet">
              <Text size="sm" c="dimmed">
                Events appear here as they are sent. Send a test event to check the endpoint.
              </Text>
            </EmptyHint>
          </Paper>
        ) : (
          <Paper withBorder>
            <DeliveriesTable
              deliveries={rows}
              onRetry={retryOne}
              retrying={retry.isPending ? (retry.variables?.deliveryId ?? null) : null}
            />
            <LoadMore query={deliveries} auto={false} />
          </Paper>
        )}
      </Stack>
      <EditWebhookModal webhook={editing ? hook : null} onClose={() => setEditing(false)} />
      <RotateSecretModal webhook={rotating ? hook : null} onClose={() => setRotating(false)} />
    </>
  );
}
