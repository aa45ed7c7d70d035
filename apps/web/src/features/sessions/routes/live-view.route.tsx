import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { EmptyHint } from '@/shared/components/empty-hint';
import { confirmAction } from '@/shared/components/confirm';
import { PageHeader } from '@/shared/components/page-header';
import { RelativeTime } from '@/shared/components/relative-time';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { notifySuccess } from '@/shared/utils/notify';
import { messageTotal, useLiveView, type LiveViewConnection } from '../api/live-view';
import { useDisconnectSession } from '../api/sessions.queries';
import { MessageLog } from '../components/message-log';
import { SessionStatusBadge } from '../components/session-status-badge';

const CONNECTION_TEXT: Record<LiveViewConnection, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Connection lost — reconnecting and resuming where it left off…',
  ended: 'The session has finished.',
  closed: 'The stream closed.',
};

/** Live View: one session's messages streaming in as the agent appends them. */
export function LiveViewRoute() {
  const { id = '' } = useParams();
  const { data, connection, reconnect } = useLiveView(id);
  const canDisconnect = useCan('session.disconnect');
  const disconnect = useDisconnectSession();
  const confirmDisconnect = () =>
    confirmAction({
      title: 'Disconnect this session?',
      body: "The session ends now: the agent's next append or end call is refused. Its messages stay readable here.",
      confirmLabel: 'Disconnect',
      onConfirm: async () => {
        await disconnect.mutateAsync(id);
        notifySuccess('Session disconnected');
      },
    });
  const session = data.session;

  return (
    <>
      <Anchor component={Link} to="/sessions" size="sm">
        ← Sessions
      </Anchor>
      <PageHeader
        title={session ? session.name : 'Live View'}
        description={
          session ? (
            <>
              Started <RelativeTime value={session.startedAt} />
              {session.externalId !== null && <> · external id {session.externalId}</>} ·{' '}
              {data.messages.length} of {messageTotal(data)} messages received
            </>
          ) : undefined
        }
        actions={
          <Group gap="sm">
            {session && <SessionStatusBadge status={session.status} />}
            {canDisconnect && session?.status === 'active' && (
              <Button color="red" variant="light" onClick={confirmDisconnect}>
                Disconnect
              </Button>
            )}
          </Group>
        }
      />
      <Stack>
        <Group gap="xs" role="status" aria-live="polite">
          {(connection === 'connecting' || connection === 'reconnecting') && <Loader size="xs" />}
          <Text
            size="sm"
            c={
              connection === 'reconnecting' || connection === 'closed'
                ? 'light-dark(var(--mantine-color-orange-9), var(--mantine-color-orange-4))'
                : 'dimmed'
            }
          >
            {CONNECTION_TEXT[connection]}
          </Text>
          {connection === 'closed' && (
            <Button size="xs" variant="default" onClick={reconnect}>
              Reconnect
            </Button>
          )}
        </Group>
        {connection === 'closed' && session === null && (
          <Alert color="orange" variant="light" title="This session could not be opened">
            It may not exist in this organisation, or your sign-in may have ended.
          </Alert>
        )}
        <Paper withBorder>
          {data.messages.length === 0 && connection !== 'closed' ? (
            <EmptyHint title="No messages yet">
              <Text size="sm" c="dimmed">
                Messages appear here as the agent appends them (client.sessions.append in the SDK).
              </Text>
            </EmptyHint>
          ) : (
            <MessageLog messages={data.messages} />
          )}
        </Paper>
      </Stack>
    </>
  );
}
