import type { InterruptResponse } from '@interlock/api-client';
import { Affix, Anchor, Box, Button, Group, Kbd, Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AfterFirstPaint } from '@/shared/components/after-first-paint';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { PageHeader } from '@/shared/components/page-header';
import { GettingStarted } from '@/shared/onboarding/getting-started';
import { QueryError } from '@/shared/components/query-error';
import { useShortcutsEnabled } from '@/shared/preferences/preferences';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { notifyError, notifySuccess } from '@/shared/utils/notify';
import { latestHeld, UNDO_SECONDS, useHeldInterruptIds } from '../api/held-approvals';
import { canApproveAll, undecidedActions, useInterruptList } from '../api/interrupts.queries';
import { ApproveConfirmModal } from '../components/approve-confirm-modal';
import { approveWithUndo, undo } from '../components/approve-with-undo';
import { BulkApproveModal } from '../components/bulk-approve-modal';
import { InboxEmpty } from '../components/inbox-empty';
import { InboxFilters, InboxTabs } from '../components/inbox-filters';
import { InboxTable } from '../components/inbox-table';
import { RejectModal } from '../components/reject-modal';
import { useInboxSelection } from '../components/use-inbox-selection';
import { useInboxShortcuts } from '../components/use-inbox-shortcuts';
import { useInboxUrlState } from '../components/use-inbox-url-state';
import { LoadMore } from '@/shared/components/load-more';
import { useRenderFirst } from '@/shared/utils/use-render-first';

/** About a laptop screen of rows (1440×900 shows 9–10 below the filters). */
const FIRST_ROWS = 12;

/**
 * The inbox: what waits for a decision, live. The pieces live beside it: the URL state
 * (use-inbox-url-state), the selection (use-inbox-selection), bulk approve (bulk-approve-modal),
 * tabs and filters (inbox-filters), the empty states (inbox-empty); this page wires them to the
 * list, the keyboard cursor and the dialogs.
 */
export function InboxRoute() {
  const url = useInboxUrlState();
  const { tab, filters } = url;

  const list = useInterruptList(filters);
  // Interrupts whose approval is held for undo (or being sent) are gone from the list already.
  const heldIds = useHeldInterruptIds();
  const interrupts = useMemo(
    () => (list.data?.pages.flatMap((p) => p.interrupts) ?? []).filter((i) => !heldIds.has(i.id)),
    [list.data, heldIds],
  );
  const selection = useInboxSelection(interrupts, filters);
  // The rows a screen holds first, the rest right after (the first load's main cost).
  const rows = useRenderFirst(interrupts, FIRST_ROWS);

  const canDecide = useCan('interrupt.decide');
  const bulk = canDecide && tab !== 'answered';
  // Below a tablet's width (the tables' list layout) the bulk button moves to a bar at the bottom.
  const phone = useMediaQuery('(max-width: 47.99em)');
  const [shortcuts] = useShortcutsEnabled();
  const navigate = useNavigate();
  const tbody = useRef<HTMLTableSectionElement>(null);
  const [active, setActive] = useState(-1);
  const [rejecting, setRejecting] = useState<InterruptResponse | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [confirming, setConfirming] = useState<InterruptResponse | null>(null);
  const [focusAfter, setFocusAfter] = useState<number | null>(null);
  const queryClient = useQueryClient();

  // A new tab or filter starts without a cursor row.
  useEffect(() => setActive(-1), [filters]);

  const current = active >= 0 ? interrupts[active] : undefined;
  const focusRow = (index: number) => {
    const links = tbody.current?.querySelectorAll<HTMLAnchorElement>('a[data-row-link]');
    links?.[index]?.focus();
  };
  // After a dialog closes (or a row leaves), the cursor goes back to the row now at that place —
  // the one before it when the last row left — or, when none is left, to the empty state's
  // heading: never to the page's body, where a keyboard or screen-reader user would start over.
  // Focusing a row moves the cursor with it (its link's onFocus), so j/k go on from there.
  const emptyHeading = useRef<HTMLHeadingElement>(null);
  // Rows come and go above the cursor's row (an undo, the live list): the cursor stays on the row
  // whose link has the focus, so j/k, a, r and e act from there and not from its old place.
  useEffect(() => {
    const links = [...(tbody.current?.querySelectorAll('a[data-row-link]') ?? [])];
    const at = links.indexOf(document.activeElement as Element);
    if (at >= 0) setActive(at);
  }, [rows]);
  useEffect(() => {
    if (focusAfter === null) return;
    setFocusAfter(null);
    if (interrupts.length > 0) focusRow(Math.min(focusAfter, interrupts.length - 1));
    else {
      setActive(-1);
      emptyHeading.current?.focus();
    }
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
      if (last === undefined) return;
      // From the empty state (its heading has the focus, and leaves), the rows back take it.
      if (document.activeElement === emptyHeading.current) setFocusAfter(0);
      undo(last.key);
    },
  });

  return (
    <>
      <PageHeader
        title="Inbox"
        description="Interrupts your agents opened for a human decision. The list updates by itself."
        actions={
          bulk &&
          !phone && (
            <Button disabled={selection.selected.size === 0} onClick={() => setBulkOpen(true)}>
              Approve selected ({selection.selected.size})
            </Button>
          )
        }
      />
      <GettingStarted here="inbox" />
      <InboxTabs tab={tab} setParam={url.setParam} />
      <InboxFilters {...url} />
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
        <InboxEmpty tab={tab} filtered={url.filtered} headingRef={emptyHeading} />
      ) : (
        <Paper withBorder>
          <InboxTable
            ref={tbody}
            interrupts={rows}
            answered={tab === 'answered'}
            activeIndex={active}
            selected={selection.selected}
            selectable={canDecide && tab !== 'answered'}
            onFocusRow={setActive}
            onToggle={selection.toggle}
            onToggleAll={selection.toggleAll}
          />
          {rows.length === interrupts.length && <LoadMore query={list} />}
        </Paper>
      )}
      {bulk && phone && selection.selected.size > 0 && (
        <>
          {/* Room below the last row, so the bar never covers it. */}
          <Box h={72} />
          <Affix position={{ bottom: 0, left: 0, right: 0 }}>
            <Paper
              withBorder
              shadow="md"
              radius={0}
              p="sm"
              role="region"
              aria-label="Selected interrupts"
            >
              <Group justify="space-between" wrap="nowrap">
                <Button variant="default" onClick={selection.clear}>
                  Clear
                </Button>
                <Button onClick={() => setBulkOpen(true)}>
                  Approve selected ({selection.selected.size})
                </Button>
              </Group>
            </Paper>
          </Affix>
        </>
      )}
      <AfterFirstPaint>
        <RejectModal
          interrupt={rejecting}
          onClose={() => {
            setRejecting(null);
            // Rejected, the row has left (the dialog closes once the list is fresh); cancelled,
            // it is still there.
            setFocusAfter(active);
          }}
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
          chosen={selection.chosen}
          onClose={() => setBulkOpen(false)}
          onConfirm={(chosen) => {
            setBulkOpen(false);
            selection.clear();
            approveWithUndo(chosen, queryClient);
            // The button that opened the dialog is disabled now (nothing selected): the first
            // row left takes the focus.
            setFocusAfter(0);
          }}
        />
      </AfterFirstPaint>
    </>
  );
}
