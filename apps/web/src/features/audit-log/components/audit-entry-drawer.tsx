import type { AuditEntryResponse } from '@interlock/api-client';
import { Code, Drawer, Stack, Table, Text } from '@mantine/core';
import { JsonBlock } from '@/shared/components/json-block';
import { dateTime } from '@/shared/utils/format';

/** One entry with every field and its metadata. */
export function AuditEntryDrawer({
  entry,
  onClose,
}: {
  entry: AuditEntryResponse | null;
  onClose: () => void;
}) {
  const rows: [string, string | undefined][] = entry
    ? [
        ['Time', `${dateTime(entry.createdAt)} (${entry.createdAt})`],
        ['Action', entry.action],
        ['Category', entry.category],
        [
          'Actor',
          `${entry.actorName} (${entry.actorType}${entry.actorId ? ` ${entry.actorId}` : ''})`,
        ],
        [
          'Target',
          entry.targetType
            ? `${entry.targetName ?? ''} (${entry.targetType} ${entry.targetId ?? ''})`
            : undefined,
        ],
        ['IP address', entry.ipAddress],
        ['Entry id', entry.id],
      ]
    : [];
  return (
    <Drawer
      opened={entry !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title="Audit entry"
      closeButtonProps={{ 'aria-label': 'Close the entry' }}
    >
      {entry && (
        <Stack>
          <Text fw={500}>{entry.summary}</Text>
          <Table aria-label="Entry fields" variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              {rows
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Th w={120}>{k}</Table.Th>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      {k === 'Action' ? <Code>{v}</Code> : v}
                    </Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" fw={500}>
            Metadata
          </Text>
          {entry.metadata === null ? (
            <Text size="sm" c="dimmed">
              None
            </Text>
          ) : (
            <JsonBlock value={entry.metadata} label="Metadata" />
          )}
        </Stack>
      )}
    </Drawer>
  );
}
