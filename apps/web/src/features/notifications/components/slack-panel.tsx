import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { CellNote } from '@/shared/components/cell-note';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { ConfirmButton } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { useTeams } from '@/shared/directory/directory.queries';
import {
  useConnectSlack,
  useDisconnectSlack,
  useSlackSettings,
} from '../api/notifications.queries';
import { whenSettled } from '@/shared/utils/when-settled';

const STATUS_COLORS = { pending: 'gray', sending: 'blue', sent: 'green', failed: 'red' } as const;

type Risk = 'low' | 'medium' | 'high' | 'critical';

/** The risk rules a channel can have (SPEC §8h); `low` is every rated risk, so it is not offered. */
const RISK_RULES: { value: '' | Risk; label: string }[] = [
  { value: '', label: 'Whatever the risk' },
  { value: 'medium', label: 'Medium risk and above' },
  { value: 'high', label: 'High risk and above' },
  { value: 'critical', label: 'Critical risk only' },
];

/** How the connection line says the risk rule: ` of high risk or above (or of unknown risk)`. */
function riskRule(minRisk: Risk | null): string {
  if (minRisk === null) return '';
  const least = minRisk === 'critical' ? 'critical risk' : `${minRisk} risk or above`;
  return ` of ${least} (or of unknown risk)`;
}

/**
 * Settings → Notifications → Slack (issue 30 §4): the connection (never its secrets), the form to
 * connect or replace it (`webhook.manage`), and the latest messages with their status.
 */
export function SlackPanel({ canManage }: { canManage: boolean }) {
  const slack = useSlackSettings();
  const teams = useTeams({ enabled: canManage });
  const connect = useConnectSlack();
  const disconnect = useDisconnectSlack();
  const [editing, setEditing] = useState(false);
  const [botToken, setBotToken] = useState('');
  const [signingSecret, setSigningSecret] = useState('');
  const [channelId, setChannelId] = useState('');
  const [teamId, setTeamId] = useState<string | null>(null);
  const [minRisk, setMinRisk] = useState<Risk | null>(null);

  if (slack.isPending) return <CenteredLoader label="Loading the Slack connection" />;
  if (slack.isError)
    return (
      <QueryError
        error={slack.error}
        title="Could not load the Slack connection"
        onRetry={() => void slack.refetch()}
      />
    );
  const connection = slack.data.connection;
  const showForm = canManage && (connection === null || editing);

  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={3} size="h4">
          Slack
        </Title>
        {connection === null ? (
          <Text size="sm" c="dimmed">
            Not connected. With a Slack app connected, each new interrupt is posted to a channel
            with Approve / Reject buttons, and the message changes when anyone decides.
          </Text>
        ) : (
          <Stack gap={4}>
            <Text size="sm">
              Connected to <strong>{connection.slackTeamName}</strong>: posting{' '}
              {connection.teamId === null
                ? 'every new interrupt'
                : `interrupts assigned to ${connection.teamName ?? 'a team that no longer exists'}`}
              {riskRule(connection.minRisk)} to channel <Code>{connection.channelId}</Code>.
            </Text>
            <Text size="sm">
              Interactivity Request URL: <Code>{connection.requestUrl}</Code>
            </Text>
            <Text size="xs" c="dimmed">
              Token and signing secret set <RelativeTime value={connection.credentialsSetAt} />{' '}
              (stored encrypted, never shown).
            </Text>
            {canManage && !editing && (
              <Group mt="xs">
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => {
                    setChannelId(connection.channelId);
                    setTeamId(connection.teamId);
                    setMinRisk(connection.minRisk);
                    setEditing(true);
                  }}
                >
                  Replace connection
                </Button>
                <ConfirmButton
                  variant="default"
                  color="red"
                  size="xs"
                  confirm={{
                    title: 'Disconnect Slack?',
                    body: 'New interrupts are no longer posted, and messages already in the channel stop being updated.',
                    confirmLabel: 'Disconnect Slack',
                    onConfirm: () => disconnect.mutateAsync(),
                  }}
                >
                  Disconnect
                </ConfirmButton>
              </Group>
            )}
          </Stack>
        )}
        {showForm && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              whenSettled(
                connect.mutateAsync({
                  botToken: botToken.trim(),
                  signingSecret: signingSecret.trim(),
                  channelId: channelId.trim(),
                  teamId,
                  minRisk,
                }),
                () => {
                  setEditing(false);
                  setBotToken('');
                  setSigningSecret('');
                },
              );
            }}
          >
            <Stack>
              <Text size="sm" c="dimmed">
                Create a Slack app with the bot scopes chat:write, users:read and users:read.email,
                install it and invite it to the channel; turn on Interactivity with the Request URL
                shown here once connected. A Slack user decides as the member with the same email
                address.
              </Text>
              <PasswordInput
                label="Bot token"
                description="OAuth & Permissions → Bot User OAuth Token (xoxb-…)"
                value={botToken}
                onChange={(e) => setBotToken(e.currentTarget.value)}
                required
                autoComplete="off"
              />
              <PasswordInput
                label="Signing secret"
                description="Basic Information → App Credentials"
                value={signingSecret}
                onChange={(e) => setSigningSecret(e.currentTarget.value)}
                required
                autoComplete="off"
              />
              <TextInput
                label="Channel id"
                description="The channel's id (channel details → About), e.g. C0123ABCD"
                value={channelId}
                onChange={(e) => setChannelId(e.currentTarget.value)}
                required
                maw={320}
              />
              <Select
                label="Which interrupts"
                data={[
                  { value: '', label: 'Every new interrupt' },
                  ...(teams.data ?? []).map((t) => ({
                    value: t.id,
                    label: `Those assigned to ${t.name}`,
                  })),
                ]}
                value={teamId ?? ''}
                onChange={(v) => setTeamId(v === null || v === '' ? null : v)}
                allowDeselect={false}
                maw={320}
              />
              <Select
                label="Which risk"
                description="The risk the organisation's classifier gave (Settings → Classification). An interrupt whose risk is unknown — no classifier, or it did not answer — is posted whatever this says: it goes to a person."
                data={RISK_RULES}
                value={minRisk ?? ''}
                onChange={(v) => setMinRisk(v === null || v === '' ? null : (v as Risk))}
                allowDeselect={false}
                maw={320}
              />
              <FormError error={connect.error} />
              <Group>
                <Button type="submit" loading={connect.isPending}>
                  {connection === null ? 'Connect Slack' : 'Replace connection'}
                </Button>
                {editing && (
                  <Button variant="default" onClick={() => setEditing(false)}>
                    Cancel
                  </Button>
                )}
              </Group>
            </Stack>
          </form>
        )}
        {slack.data.messages.length > 0 && (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Interrupt</Table.Th>
                <Table.Th>Message</Table.Th>
                <Table.Th>Changed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {slack.data.messages.map((m) => (
                <Table.Tr key={m.interruptId}>
                  <Table.Td>
                    <Anchor component={Link} to={`/interrupts/${m.interruptId}`} size="sm">
                      {m.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[m.status]} variant="light">
                      {m.status}
                    </Badge>
                    <CellNote text={m.lastError} />
                  </Table.Td>
                  <Table.Td>
                    <RelativeTime value={m.updatedAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
