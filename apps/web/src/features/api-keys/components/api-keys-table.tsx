import type { ApiKeyResponse } from '@interlock/api-client';
import { Button, Code, Group, Table, Text } from '@mantine/core';
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
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="API keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Key</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
            <Table.Th scope="col">Expires</Table.Th>
            <Table.Th scope="col">Last used</Table.Th>
            {withActions && (
              <Table.Th scope="col">
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
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
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
