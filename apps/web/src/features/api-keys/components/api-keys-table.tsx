import type { ApiKeyResponse } from '@interlock/api-client';
import { Code, Table, Text } from '@mantine/core';
import { ListTable } from '@/shared/components/list-table';
import { RelativeTime } from '@/shared/components/relative-time';
import { RowActions } from '@/shared/components/row-actions';

export function ApiKeysTable({
  apiKeys,
  canRename,
  canRevoke,
  onRename,
  onRevoke,
}: {
  apiKeys: ApiKeyResponse[];
  canRename: boolean;
  canRevoke: boolean;
  onRename: (key: ApiKeyResponse) => void;
  onRevoke: (key: ApiKeyResponse) => void;
}) {
  const withActions = canRename || canRevoke;
  return (
    <ListTable
      label="API keys"
      columns={[
        'Name',
        'Key',
        'Created',
        'Expires',
        'Last used',
        withActions && { hidden: 'Actions' },
      ]}
      minWidth={640}
      highlightOnHover
    >
      {apiKeys.map((key) => (
        <Table.Tr key={key.id}>
          <Table.Td>
            <Text fw={500} size="sm">
              {key.name}
            </Text>
          </Table.Td>
          <Table.Td>
            <Code>{key.start}…</Code>
          </Table.Td>
          <Table.Td>
            <RelativeTime value={key.createdAt} />
          </Table.Td>
          <Table.Td>
            {key.expiresAt === null ? 'Never' : <RelativeTime value={key.expiresAt} />}
          </Table.Td>
          <Table.Td>
            {key.lastUsedAt === null ? (
              <Text c="dimmed" size="sm">
                Never used
              </Text>
            ) : (
              <RelativeTime value={key.lastUsedAt} />
            )}
          </Table.Td>
          {withActions && (
            <Table.Td>
              <RowActions
                of={key.name}
                actions={[
                  canRename && { label: 'Rename', onClick: () => onRename(key) },
                  canRevoke && { label: 'Revoke', onClick: () => onRevoke(key), danger: true },
                ]}
              />
            </Table.Td>
          )}
        </Table.Tr>
      ))}
    </ListTable>
  );
}
