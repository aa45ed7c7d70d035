import { Anchor, Grid, Group, Stack, Text } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../shared/components/centered-loader';
import { JsonBlock } from '../../../shared/components/json-block';
import { PageHeader } from '../../../shared/components/page-header';
import { QueryError } from '../../../shared/components/query-error';
import { RelativeTime } from '../../../shared/components/relative-time';
import { useCan } from '../../../shared/sign-in/sign-in-session.queries';
import { undecidedActions, useInterrupt } from '../api/interrupts.queries';
import { ActionCard } from '../components/action-card';
import { AssignPanel, EscalatePanel } from '../components/assign-escalate';
import { HistoryTimeline } from '../components/history-timeline';
import { AssigneeBadge, EscalationBadge, StatusBadge } from '../components/interrupt-badges';

/** One interrupt: its actions to decide, assignment, escalation and history. `?edit=<action>` opens that action's editor. */
export function InterruptRoute() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const canDecide = useCan('interrupt.decide');
  const canAssign = useCan('interrupt.assign');
  const canEscalate = useCan('interrupt.escalate');
  const canWatch = useCan('session.read');
  const canAudit = useCan('auditLog.read');
  const interrupt = useInterrupt(id, canAudit);

  if (interrupt.isPending) return <CenteredLoader label="Loading the interrupt" />;
  if (interrupt.isError) return <QueryError error={interrupt.error} title="Could not load this interrupt" onRetry={() => void interrupt.refetch()} />;
  const it = interrupt.data;
  const editing = params.get('edit') ?? undecidedActions(it).find((a) => a.allowedDecisions.includes('edit'))?.name;
  const wantsEdit = params.has('edit');

  return (
    <>
      <Anchor component={Link} to="/inbox" size="sm">
        ← Inbox
      </Anchor>
      <PageHeader
        title={it.title}
        description={
          <>
            Opened <RelativeTime value={it.createdAt} />
            {it.externalId !== null && <> · external id {it.externalId}</>}
            {it.answeredAt !== null && (
              <>
                {' '}
                · answered <RelativeTime value={it.answeredAt} />
              </>
            )}
          </>
        }
        actions={
          <Group gap="xs">
            <StatusBadge status={it.status} />
            <AssigneeBadge assignee={it.assignee} />
            <EscalationBadge interrupt={it} />
          </Group>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack>
            {it.description !== null && <Text>{it.description}</Text>}
            {it.actionRequests.map((action) => (
              <ActionCard key={action.name} interrupt={it} action={action} canDecide={canDecide} startEditing={wantsEdit && action.name === editing} />
            ))}
            {it.metadata !== null && Object.keys(it.metadata).length > 0 && (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Metadata
                </Text>
                <JsonBlock value={it.metadata} label="Metadata" />
              </Stack>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack>
            {it.session && (
              <Text size="sm">
                Session:{' '}
                {canWatch ? (
                  <Anchor component={Link} to={`/sessions/${it.session.id}`}>
                    {it.session.name}
                  </Anchor>
                ) : (
                  it.session.name
                )}{' '}
                ({it.session.status})
              </Text>
            )}
            {canAssign && <AssignPanel interrupt={it} />}
            {canEscalate && <EscalatePanel interrupt={it} />}
            {canAudit && <HistoryTimeline history={it.history ?? []} />}
            {canAudit && (
              <Anchor component={Link} to={`/audit-log?targetType=interrupt&targetId=${it.id}`} size="sm">
                Audit log entries
              </Anchor>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
