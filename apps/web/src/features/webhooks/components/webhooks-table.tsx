import type { WebhookResponse } from '@interlock/api-client';
import { Anchor, Switch, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { RelativeTime } from '@/shared/components/relative-time';
import { describeEventTypes } from './event-types';
import { WebhookStatusBadge } from './webhook-status-badge';
import { TABLE_MIN_WIDTH } from '@/shared/utils/table-width';

export function WebhooksTable({
  webhooks,
  onToggle,
}: {
  webhooks: WebhookResponse[];
  onToggle: (webhook: WebhookResponse, enabled: boolean) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Webhooks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">URL</Table.Th>
            <Table.Th scope="col">Events</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
            <Table.Th scope="col">Enabled</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {webhooks.map((webhook) => (
            <Table.Tr key={webhook.id}>
              <Table.Td maw={420}>
                <Anchor
                  component={Link}
                  to={`/integrations/webhooks/${webhook.id}`}
                  fw={500}
                  size="sm"
                  style={{ wordBreak: 'break-all' }}
                >
                  {webhook.url}
                </Anchor>
                {webhook.description !== '' && (
                  <Text size="xs" c="dimmed">
                    {webhook.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{describeEventTypes(webhook.eventTypes)}</Text>
              </Table.Td>
              <Table.Td>
                <WebhookStatusBadge webhook={webhook} />
              </Table.Td>
              <Table.Td>
                <RelativeTime value={webhook.createdAt} />
              </Table.Td>
              <Table.Td>
                <Switch
                  checked={webhook.enabled}
                  onChange={(event) => onToggle(webhook, event.currentTarget.checked)}
                  aria-label={`${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.url}`}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
