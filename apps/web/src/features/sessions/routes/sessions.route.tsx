import { Anchor, Paper, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AgentSnippet } from '@/shared/components/agent-snippet';
import { CellNote } from '@/shared/components/cell-note';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { ListTable } from '@/shared/components/list-table';
import { RelativeTime } from '@/shared/components/relative-time';
import { useSessionList, type SessionFilters } from '../api/sessions.queries';
import { SessionStatusBadge } from '../components/session-status-badge';
import { LoadMore } from '@/shared/components/load-more';

/** Sessions: what the agents are doing (active) and did (ended), newest first. */
export function SessionsRoute() {
  const [params, setParams] = useSearchParams();
  const status =
    params.get('status') === 'ended' ? 'ended' : params.get('status') === 'all' ? 'all' : 'active';
  const filters = useMemo<SessionFilters>(() => (status === 'all' ? {} : { status }), [status]);
  const list = useSessionList(filters);
  const sessions = useMemo(() => list.data?.pages.flatMap((p) => p.sessions) ?? [], [list.data]);
  return (
    <>
      <PageHeader
        title="Sessions"
        description="Agents stream their work into sessions; open one to watch it live."
      />
      <SegmentedControl
        mb="md"
        aria-label="Which sessions"
        value={status}
        onChange={(value) =>
          setParams(value === 'active' ? {} : { status: value }, { replace: true })
        }
        data={[
          { value: 'active', label: 'Active' },
          { value: 'ended', label: 'Ended' },
          { value: 'all', label: 'All' },
        ]}
      />
      {list.isPending ? (
        <CenteredLoader label="Loading sessions" />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : sessions.length === 0 ? (
        <Paper withBorder p="lg">
          <EmptyHint
            title={status === 'active' ? 'No agent is running a session now' : 'No sessions yet'}
          >
            <Stack align="center" gap="sm">
              <Text size="sm" c="dimmed">
                An agent starts one with the SDK and appends what it does; it appears here at once:
              </Text>
              <AgentSessionSnippet />
            </Stack>
          </EmptyHint>
        </Paper>
      ) : (
        <Paper withBorder>
          <ListTable
            label="Sessions"
            columns={['Session', 'Status', 'Messages', 'Started', 'Ended']}
            minWidth={640}
            highlightOnHover
          >
            {sessions.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/sessions/${s.id}`} fw={500} size="sm">
                    {s.name}
                  </Anchor>
                  <CellNote text={s.externalId} />
                </Table.Td>
                <Table.Td>
                  <SessionStatusBadge status={s.status} />
                </Table.Td>
                <Table.Td>{s.messageCount}</Table.Td>
                <Table.Td>
                  <RelativeTime value={s.startedAt} />
                </Table.Td>
                <Table.Td>{s.endedAt ? <RelativeTime value={s.endedAt} /> : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
          <LoadMore query={list} />
        </Paper>
      )}
    </>
  );
}

function AgentSessionSnippet() {
  return (
    <AgentSnippet
      code={[
        "const session = await client.sessions.start({ name: 'nightly-build' });",
        "await client.sessions.append(session.id, [{ role: 'agent', content: 'Running the tests…' }]);",
        'await client.sessions.end(session.id);',
      ].join('\n')}
    />
  );
}
