import type { InterruptResponse } from '@interlock/api-client';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Kbd,
  Modal,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue, useIntersection } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AgentSnippet } from '@/shared/components/agent-snippet';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { useShortcutsEnabled } from '@/shared/preferences/preferences';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { notifyError, notifySuccess } from '@/shared/utils/notify';
import { latestHeld, UNDO_SECONDS, useHeldInterruptIds } from '../api/held-approvals';
import {
  canApproveAll,
  undecidedActions,
  useInterruptCounts,
  useInterruptList,
  inboxFromParams,
  type InboxTab,
} from '../api/interrupts.queries';
import { ApproveConfirmModal } from '../components/approve-confirm-modal';
import { approveWithUndo, undo } from '../components/approve-with-undo';
import { InboxTable } from '../components/inbox-table';
import { RejectModal } from '../components/reject-modal';
import { useInboxShortcuts } from '../components/use-inbox-shortcuts';

type Tab = InboxTab;
const TABS: {
  value: Tab;
  label: string;
  count: 'open' | 'assignedToMe' | 'escalated' | 'answered';
}[] = [
  { value: 'open', label: 'Open', count: 'open' },
  { value: 'mine', label: 'Assigned to me', count: 'assignedToMe' },
  { value: 'escalated', label: 'Escalated', count: 'escalated' },
  { value: 'answered', label: 'Answered', count: 'answered' },
];

/** The inbox: what waits for a decision, live. */
export function InboxRoute() {
  const [params, setParams] = useSearchParams();
  const { tab, filters } = useMemo(() => inboxFromParams(params), [params]);
  const order = filters.order ?? 'newest';
  const assignee = tab === 'open' ? (params.get('assignee') ?? null) : null;
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [q] = useDebouncedValue(search.trim(), 250);
  const setParam = (name: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  useEffect(() => {
    if ((params.get('q') ?? '') !== q) setParam('q', q);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);

  const list = useInterruptList(filters);
  const counts = useInterruptCounts();
  // Interrupts whose approval is held for undo (or being sent) are gone from the list already.
  const heldIds = useHeldInterruptIds();
  const interrupts = useMemo(
    () => (list.data?.pages.flatMap((p) => p.interrupts) ?? []).filter((i) => !heldIds.has(i.id)),
    [list.data, heldIds],
  );

  const canDecide = useCan('interrupt.decide');
  const [shortcuts] = useShortcutsEnabled();
  const navigate = useNavigate();
  const tbody = useRef<HTMLTableSectionElement>(null);
  const [active, setActive] = useState(-1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rejecting, setRejecting] = useState<InterruptResponse | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [confirming, setConfirming] = useState<InterruptResponse | null>(null);
  const [focusAfter, setFocusAfter] = useState<number | null>(null);
  const queryClient = useQueryClient();

  // A new tab or filter starts without a cursor row or a selection.
  useEffect(() => {
    setActive(-1);
    setSelected(new Set());
  }, [filters]);

  const current = active >= 0 ? interrupts[active] : undefined;
  const focusRow = (index: number) => {
    const links = tbody.current?.querySelectorAll<HTMLAnchorElement>('a[data-row-link]');
    links?.[index]?.focus();
  };
  // After a dialog closes (or a row leaves), the cursor goes back to the row now at that place.
  useEffect(() => {
    if (focusAfter === null) return;
    setFocusAfter(null);
    if (interrupts.length > 0) focusRow(Math.min(focusAfter, interrupts.length - 1));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusAfter]);
  // `a` never approves unseen: it shows what would be approved, and Enter confirms.
  const approve = (it: InterruptResponse) => {
    if (!canApproveAll(it))
      return notifyError(
        new Error(`“${it.title}” has an action that cannot be approved: open it to decide.`),
      );
    setConfirming(it);
  };

  useInboxShortcuts(shortcuts, {
    move: (delta) => {
      if (interrupts.length === 0) return;
      const next = Math.min(interrupts.length - 1, Math.max(0, active + delta));
      setActive(next);
      focusRow(next);
      if (next >= interrupts.length - 5 && list.hasNextPage && !list.isFetchingNextPage)
        void list.fetchNextPage();
    },
    open: () => current && void navigate(`/interrupts/${current.id}`),
    approve: () => current && canDecide && approve(current),
    reject: () => {
      if (!current || !canDecide || current.status !== 'open') return;
      if (!undecidedActions(current).every((a) => a.allowedDecisions.includes('reject')))
        return notifyError(
          new Error(`“${current.title}” has an action that cannot be rejected: open it to decide.`),
        );
      setRejecting(current);
    },
    edit: () => {
      if (!current || !canDecide || current.status !== 'open') return;
      const editable = undecidedActions(current).find((a) => a.allowedDecisions.includes('edit'));
      if (!editable)
        return notifyError(new Error(`“${current.title}” has no action that can be edited.`));
      void navigate(`/interrupts/${current.id}?edit=${encodeURIComponent(editable.name)}`);
    },
    undo: () => {
      const last = latestHeld();
      if (last !== undefined) undo(last.key);
    },
  });

  const sentinel = useIntersection({ rootMargin: '400px' });
  useEffect(() => {
    if (sentinel.entry?.isIntersecting && list.hasNextPage && !list.isFetchingNextPage)
      void list.fetchNextPage();
  }, [sentinel.entry?.isIntersecting, list]);

  const filtered = q !== '' || (tab === 'open' && assignee !== null);
  const countLabel = (key: (typeof TABS)[number]['count']) => {
    const c = counts.data?.[key];
    return c === undefined ? '' : `${c.count}${c.capped ? '+' : ''}`;
  };

  return (
    <>
      <PageHeader
        title="Inbox"
        description="Interrupts your agents opened for a human decision. The list updates by itself."
        actions={
          canDecide &&
          tab !== 'answered' && (
            <Button disabled={selected.size === 0} onClick={() => setBulkOpen(true)}>
              Approve selected ({selected.size})
            </Button>
          )
        }
      />
      <Tabs
        value={tab}
        onChange={(value) => setParam('tab', value === 'open' ? null : value)}
        keepMounted={false}
      >
        <Tabs.List aria-label="Inbox tabs">
          {TABS.map((t) => (
            <Tabs.Tab
              key={t.value}
              value={t.value}
              rightSection={
                countLabel(t.count) !== '' && (
                  <Badge
                    size="sm"
                    variant="light"
                    color={t.value === 'escalated' && counts.data?.escalated.count ? 'red' : 'gray'}
                    aria-hidden
                  >
                    {countLabel(t.count)}
                  </Badge>
                )
              }
              aria-label={`${t.label} (${countLabel(t.count) || '…'})`}
            >
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Group mt="md" mb="sm" gap="sm" align="flex-end">
        <TextInput
          label="Search titles"
          placeholder="Words the title starts with"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={280}
          type="search"
        />
        <Select
          label="Order"
          w={160}
          allowDeselect={false}
          data={[
            { value: 'newest', label: 'Newest first' },
            { value: 'oldest', label: 'Oldest first' },
            { value: 'deadline', label: 'Due soonest' },
          ]}
          value={order}
          onChange={(v) => setParam('order', v === 'oldest' || v === 'deadline' ? v : null)}
        />
        {tab === 'open' && (
          <Select
            label="Assignee"
            w={190}
            allowDeselect={false}
            data={[
              { value: 'any', label: 'Anyone or nobody' },
              { value: 'unassigned', label: 'Unassigned' },
              { value: 'my_teams', label: 'My teams' },
            ]}
            value={assignee ?? 'any'}
            onChange={(v) => setParam('assignee', v === 'any' ? null : v)}
          />
        )}
        {tab === 'answered' && (
          <Select
            label="Closed as"
            w={170}
            allowDeselect={false}
            data={[
              { value: 'answered', label: 'Answered' },
              { value: 'expired', label: 'Expired' },
              { value: 'withdrawn', label: 'Withdrawn' },
            ]}
            value={filters.status ?? 'answered'}
            onChange={(v) => setParam('closed', v === 'expired' || v === 'withdrawn' ? v : null)}
          />
        )}
      </Group>
      {shortcuts && (
        <Text size="xs" c="dimmed" mb="sm">
          Keyboard: <Kbd>j</Kbd> <Kbd>k</Kbd> move · <Kbd>Enter</Kbd> open · <Kbd>a</Kbd> approve
          (shows the arguments; <Kbd>Enter</Kbd> confirms) · <Kbd>z</Kbd> undo ({UNDO_SECONDS} s) ·{' '}
          <Kbd>r</Kbd> reject · <Kbd>e</Kbd> edit ·{' '}
          <Anchor component={Link} to="/settings" size="xs">
            turn single-key shortcuts off
          </Anchor>
        </Text>
      )}
      {list.isPending ? (
        <CenteredLoader label="Loading the inbox" />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : interrupts.length === 0 ? (
        <Paper withBorder p="lg">
          {filtered ? (
            <EmptyHint title="No interrupt matches">
              <Text size="sm" c="dimmed">
                Try fewer words or another assignee filter.
              </Text>
            </EmptyHint>
          ) : tab === 'open' ? (
            <EmptyHint title="Nothing waits for a decision">
              <Stack align="center" gap="sm">
                <Text size="sm" c="dimmed">
                  When an agent opens an interrupt it appears here at once. With an API key
                  (Integrations → Api Keys), an agent opens its first one like this:
                </Text>
                <AgentSnippet />
              </Stack>
            </EmptyHint>
          ) : (
            <EmptyHint
              title={
                tab === 'answered'
                  ? 'Nothing answered yet'
                  : tab === 'mine'
                    ? 'Nothing is assigned to you'
                    : 'Nothing is escalated'
              }
            >
              <Text size="sm" c="dimmed">
                {tab === 'answered'
                  ? 'Decided interrupts land here.'
                  : 'Open interrupts are in the Open tab.'}
              </Text>
            </EmptyHint>
          )}
        </Paper>
      ) : (
        <Paper withBorder>
          <InboxTable
            ref={tbody}
            interrupts={interrupts}
            answered={tab === 'answered'}
            activeIndex={active}
            selected={selected}
            selectable={canDecide && tab !== 'answered'}
            onFocusRow={setActive}
            onToggle={(it) =>
              setSelected((s) => {
                const next = new Set(s);
                if (next.has(it.id)) next.delete(it.id);
                else next.add(it.id);
                return next;
              })
            }
            onToggleAll={(checked) =>
              setSelected(
                checked ? new Set(interrupts.filter(canApproveAll).map((i) => i.id)) : new Set(),
              )
            }
          />
          <div ref={sentinel.ref} />
          {list.hasNextPage && (
            <Group justify="center" p="sm">
              <Button
                variant="subtle"
                loading={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                Load more
              </Button>
            </Group>
          )}
        </Paper>
      )}
      <RejectModal
        interrupt={rejecting}
        onClose={() => setRejecting(null)}
        onDone={(title) => notifySuccess(`Rejected “${title}”`)}
      />
      <ApproveConfirmModal
        interrupt={confirming}
        onClose={() => {
          setConfirming(null);
          setFocusAfter(active);
        }}
        onConfirm={(it) => {
          setConfirming(null);
          approveWithUndo([it], queryClient);
          setFocusAfter(active);
        }}
      />
      <BulkApproveModal
        opened={bulkOpen}
        interrupts={interrupts.filter((i) => selected.has(i.id))}
        onClose={() => setBulkOpen(false)}
        onConfirm={(chosen) => {
          setBulkOpen(false);
          setSelected(new Set());
          approveWithUndo(chosen, queryClient);
        }}
      />
    </>
  );
}

/** Bulk approve: the list scrolls inside the dialog so its buttons stay in view, whatever the selection. */
function BulkApproveModal({
  opened,
  interrupts,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  interrupts: InterruptResponse[];
  onClose: () => void;
  onConfirm: (interrupts: InterruptResponse[]) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Approve ${interrupts.length} interrupt${interrupts.length === 1 ? '' : 's'}?`}
    >
      <Stack>
        <Text size="sm">
          Every undecided action of these is approved with the arguments the agent proposed. You can
          undo for {UNDO_SECONDS} seconds.
        </Text>
        <ScrollArea.Autosize mah="50dvh" type="auto" offsetScrollbars>
          <Stack gap={2} component="ul" pl="md" m={0}>
            {interrupts.map((it) => (
              <Text key={it.id} size="sm" component="li" style={{ overflowWrap: 'anywhere' }}>
                {it.title} (
                {undecidedActions(it)
                  .map((a) => a.name)
                  .join(', ')}
                )
              </Text>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="teal"
            onClick={() => onConfirm(interrupts)}
            disabled={interrupts.length === 0}
          >
            Approve all
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
