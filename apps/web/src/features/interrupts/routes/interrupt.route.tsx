import type { InterruptResponse } from '@interlock/api-client';
import { Anchor, Button, Grid, Group, Kbd, Paper, Spoiler, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { JsonTree } from '@/shared/components/json-tree';
import { Markdown } from '@/shared/components/markdown';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { useNextAfterDecision, useShortcutsEnabled } from '@/shared/preferences/preferences';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { notifyError, notifySuccess } from '@/shared/utils/notify';
import {
  canApproveAll,
  INTERRUPT_HISTORY_MAX,
  nextOpenInterrupt,
  undecidedActions,
  useApproveAll,
  useInterrupt,
} from '../api/interrupts.queries';
import { ActionCard } from '../components/action-card';
import { ArgusExplanation } from '../components/argus-explanation';
import { AssignPanel, EscalatePanel } from '../components/assign-escalate';
import { DeadlinePanel } from '../components/deadline-panel';
import { PriorityPanel } from '../components/priority-panel';
import { EscalationPanel } from '../components/escalation-panel';
import { ResumeDeliveryPanel } from '../components/resume-delivery-panel';
import { HistoryTimeline } from '../components/history-timeline';
import {
  ApprovalsBadge,
  AssigneeBadge,
  DeadlineBadge,
  EscalationBadge,
  PriorityBadge,
  RiskBadge,
  StatusBadge,
} from '../components/interrupt-badges';
import { useInterruptShortcuts } from '../components/use-interrupt-shortcuts';
import { whenSettled } from '@/shared/utils/when-settled';

/** One interrupt: its actions to decide, assignment, escalation and history. `?edit=<action>` opens that action's editor. */
export function InterruptRoute() {
  const { id = '' } = useParams();
  // A page per interrupt: moving to the next one starts with fresh action cards.
  return <InterruptPage key={id} id={id} />;
}

function InterruptPage({ id }: { id: string }) {
  const [params] = useSearchParams();
  const canDecide = useCan('interrupt.decide');
  const canAssign = useCan('interrupt.assign');
  const canEscalate = useCan('interrupt.escalate');
  const canWatch = useCan('session.read');
  const canAudit = useCan('auditLog.read');
  const interrupt = useInterrupt(id, canAudit);
  const [shortcuts] = useShortcutsEnabled();
  useInterruptShortcuts(shortcuts && canDecide);
  const goNext = useNextAfterDecisionEffect(interrupt.data);

  if (interrupt.isPending) return <CenteredLoader label="Loading the interrupt" />;
  if (interrupt.isError)
    return (
      <QueryError
        error={interrupt.error}
        title="Could not load this interrupt"
        onRetry={() => void interrupt.refetch()}
      />
    );
  const it = interrupt.data;
  const editing =
    params.get('edit') ??
    undecidedActions(it).find((a) => a.allowedDecisions.includes('edit'))?.name;
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
            {it.openedBy && <> by {it.openedBy.name}</>}
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
            <PriorityBadge interrupt={it} />
            <RiskBadge interrupt={it} />
            <AssigneeBadge assignee={it.assignee} />
            <EscalationBadge interrupt={it} />
            <DeadlineBadge interrupt={it} />
            <ApprovalsBadge interrupt={it} />
          </Group>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack>
            {it.description !== null && (
              <Spoiler maxHeight={220} showLabel="Show the whole description" hideLabel="Show less">
                <Markdown text={it.description} label="Description" />
              </Spoiler>
            )}
            {canDecide && <DecideAllBar interrupt={it} shortcuts={shortcuts} onDecided={goNext} />}
            {it.actionRequests.map((action) => (
              <ActionCard
                key={action.name}
                interrupt={it}
                action={action}
                canDecide={canDecide}
                startEditing={wantsEdit && action.name === editing}
                onDecided={goNext}
              />
            ))}
            {it.metadata !== null && Object.keys(it.metadata).length > 0 && (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Metadata
                </Text>
                <JsonTree value={it.metadata} label="Metadata" />
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
            <ArgusExplanation
              interrupt={it}
              entries={it.argus}
              entriesLimit={INTERRUPT_HISTORY_MAX}
            />
            <DeadlinePanel interrupt={it} canDecide={canDecide} />
            <EscalationPanel escalation={it.escalation} />
            <ResumeDeliveryPanel resume={it.resume} />
            <PriorityPanel interrupt={it} canChange={canAssign} />
            {canAssign && <AssignPanel interrupt={it} />}
            {canEscalate && <EscalatePanel interrupt={it} />}
            {canAudit && <HistoryTimeline history={it.history ?? []} />}
            {canAudit && (
              <Anchor
                component={Link}
                to={`/audit-log?targetType=interrupt&targetId=${it.id}`}
                size="sm"
              >
                Audit log entries
              </Anchor>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}

/**
 * After a decision made on this page answers the interrupt, the next open one opens (unless
 * Settings turned that off). Returns what a decision calls; a colleague's decision arriving
 * live does not move the page.
 */
function useNextAfterDecisionEffect(interrupt: InterruptResponse | undefined): () => void {
  const [enabled] = useNextAfterDecision();
  // Set once a decision made here was recorded (its refresh may already be in by then).
  const [decidedHere, setDecidedHere] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = interrupt?.status;
  useEffect(() => {
    if (!decidedHere || interrupt === undefined || status === 'open') return;
    setDecidedHere(false);
    if (!enabled) return;
    void nextOpenInterrupt(queryClient, interrupt.id).then(
      (next) => {
        if (next === undefined)
          return notifySuccess(`Answered “${interrupt.title}”. Nothing else waits for a decision.`);
        notifySuccess(`Answered “${interrupt.title}”. Next: “${next.title}”.`);
        void navigate(`/interrupts/${next.id}`);
      },
      (error: unknown) => notifyError(error, 'Could not find the next interrupt'),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, decidedHere]);
  return () => setDecidedHere(true);
}

/** Above the actions: "Approve all" when every undecided action allows it, and the page's shortcuts. */
function DecideAllBar({
  interrupt,
  shortcuts,
  onDecided,
}: {
  interrupt: InterruptResponse;
  shortcuts: boolean;
  onDecided: () => void;
}) {
  const approveAll = useApproveAll();
  const open = undecidedActions(interrupt);
  if (interrupt.status !== 'open' || open.length === 0) return null;
  const all = open.length > 1 && canApproveAll(interrupt);
  if (!all && !shortcuts) return null;
  return (
    <Paper withBorder p="sm">
      <Group justify="space-between" gap="sm">
        {shortcuts ? (
          <Text size="xs" c="dimmed">
            Keyboard, for the focused action (or the first undecided): <Kbd>a</Kbd> approve ·{' '}
            <Kbd>e</Kbd> edit · <Kbd>r</Kbd> reject · <Kbd>s</Kbd> respond
          </Text>
        ) : (
          <span />
        )}
        {all && (
          <Button
            color="teal"
            loading={approveAll.isPending}
            onClick={() =>
              whenSettled(approveAll.mutateAsync(interrupt), onDecided, (error) =>
                notifyError(error, `Could not approve every action of “${interrupt.title}”`),
              )
            }
          >
            Approve all {open.length} actions
          </Button>
        )}
      </Group>
    </Paper>
  );
}
