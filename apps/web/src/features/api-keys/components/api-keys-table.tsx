import type { ApiKeyResponse } from '@interlock/api-client';
import { Button, Code, Group, Table, Text } from '@mantine/core';
import { ListTable } from '@/shared/components/list-table';
import { RelativeTime } from '@/shared/components/relative-time';

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
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                {canRename && (
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => onRename(key)}
                    aria-label={`Rename ${key.name}`}
                  >
                    Rename
                  </Button>
                )}
                {canRevoke && (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => onRevoke(key)}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </Button>
                )}
              </Group>
            </Table.Td>
          )}
        </Table.Tr>
      ))}
    </ListTable>
  );
}
