import type { WebhookDeliveryResponse } from '@interlock/api-client';
import { Badge, Button, Code, Table, Text, Tooltip } from '@mantine/core';
import { ListTable } from '@/shared/components/list-table';
import { RelativeTime } from '@/shared/components/relative-time';

const STATUS_COLOUR: Record<WebhookDeliveryResponse['status'], string> = {
  pending: 'blue',
  delivering: 'cyan',
  succeeded: 'teal',
  failed: 'red',
};

/** Each delivery: its event, status, the last attempt's answer and time, the next attempt, and retry. */
export function DeliveriesTable({
  deliveries,
  onRetry,
  retrying,
}: {
  deliveries: WebhookDeliveryResponse[];
  onRetry: (delivery: WebhookDeliveryResponse) => void;
  retrying: string | null;
}) {
  return (
    <ListTable
      label="Deliveries"
      columns={[
        'Event',
        'Status',
        'Response',
        'Duration',
        'Attempts',
        'Next attempt',
        'Created',
        { hidden: 'Actions' },
      ]}
      verticalSpacing="xs"
      highlightOnHover
    >
      {deliveries.map((delivery) => {
        const finished = delivery.status === 'succeeded' || delivery.status === 'failed';
        return (
          <Table.Tr key={delivery.id}>
            <Table.Td>
              <Code>{delivery.eventType}</Code>
              <Text size="xs" c="dimmed" ff="monospace">
                {delivery.eventId}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLOUR[delivery.status]} variant="light">
                {delivery.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              {delivery.responseStatus === null ? (
                delivery.error === null ? (
                  '—'
                ) : (
                  <Text size="sm" c="red">
                    {delivery.error}
                  </Text>
                )
              ) : (
                <Tooltip label={delivery.error ?? 'A 2xx: delivered.'}>
                  <Text size="sm">{delivery.responseStatus}</Text>
                </Tooltip>
              )}
            </Table.Td>
            <Table.Td>{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</Table.Td>
            <Table.Td>{delivery.attemptCount}</Table.Td>
            <Table.Td>
              {delivery.nextAttemptAt === null ? (
                delivery.status === 'pending' ? (
                  <Text size="sm" c="dimmed">
                    Paused (webhook disabled)
                  </Text>
                ) : (
                  '—'
                )
              ) : (
                <RelativeTime value={delivery.nextAttemptAt} />
              )}
            </Table.Td>
            <Table.Td>
              <RelativeTime value={delivery.createdAt} />
            </Table.Td>
            <Table.Td>
              {finished && (
                <Button
                  size="xs"
                  variant="default"
                  loading={retrying === delivery.id}
                  onClick={() => onRetry(delivery)}
                  aria-label={`Retry the ${delivery.eventType} delivery ${delivery.eventId}`}
                >
                  Retry
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}
