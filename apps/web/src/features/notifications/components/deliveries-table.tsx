import type { NotificationDeliveryResponse } from '@interlock/api-client';
import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { RelativeTime } from '@/shared/components/relative-time';

const COLORS: Record<NotificationDeliveryResponse['status'], string> = {
  pending: 'gray',
  sending: 'blue',
  sent: 'green',
  logged: 'yellow',
  failed: 'red',
};

/** Settings → Notifications → Recent: what was sent (or is waiting), newest first. */
export function NotificationDeliveriesTable({
  deliveries,
  showRecipient,
}: {
  deliveries: NotificationDeliveryResponse[];
  showRecipient: boolean;
}) {
  if (deliveries.length === 0) return <Text c="dimmed">No notifications yet.</Text>;
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>About</Table.Th>
          <Table.Th>Kind</Table.Th>
          {showRecipient && <Table.Th>To</Table.Th>}
          <Table.Th>Status</Table.Th>
          <Table.Th>When</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {deliveries.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>
              {d.kind !== 'invitation' && d.subjectId !== null ? (
                <Anchor component={Link} to={`/interrupts/${d.subjectId}`} size="sm">
                  {d.title ?? d.subjectId}
                </Anchor>
              ) : (
                <Text size="sm">Invitation</Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {d.kind} · {d.mode}
              </Text>
            </Table.Td>
            {showRecipient && (
              <Table.Td>
                <Text size="sm">{d.recipientEmail}</Text>
              </Table.Td>
            )}
            <Table.Td>
              <Badge color={COLORS[d.status]} variant="light">
                {d.status}
              </Badge>
              {d.attempts > 1 && (
                <Text size="xs" c="dimmed">
                  {d.attempts} attempts
                </Text>
              )}
              {d.lastError !== null && (
                <Text size="xs" c="red">
                  {d.lastError}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {d.sentAt !== null ? (
                  <RelativeTime value={d.sentAt} />
                ) : (
                  <>
                    due <RelativeTime value={d.scheduledFor} />
                  </>
                )}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
