import type { WebhookResponse } from '@interlock/api-client';
import { Anchor, Switch, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { CellNote } from '@/shared/components/cell-note';
import { ListTable } from '@/shared/components/list-table';
import { RelativeTime } from '@/shared/components/relative-time';
import { describeEventTypes } from './event-types';
import { WebhookStatusBadge } from './webhook-status-badge';

export function WebhooksTable({
  webhooks,
  onToggle,
}: {
  webhooks: WebhookResponse[];
  onToggle: (webhook: WebhookResponse, enabled: boolean) => void;
}) {
  return (
    <ListTable
      label="Webhooks"
      columns={['URL', 'Events', 'Status', 'Created', 'Enabled']}
      highlightOnHover
    >
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
            <CellNote text={webhook.description} />
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
    </ListTable>
  );
}
