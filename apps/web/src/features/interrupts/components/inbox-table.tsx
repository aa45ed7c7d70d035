import type { InterruptResponse } from '@interlock/api-client';
import { Table } from '@mantine/core';
import { forwardRef, memo } from 'react';
import { Link } from 'react-router';
import { RelativeTime } from '@/shared/components/relative-time';
import { canApproveAll, undecidedActions } from '../api/interrupts.queries';
import { ArgusRowBadge } from './argus-explanation';
import {
  AgentContext,
  ApprovalsBadge,
  AssigneeBadge,
  DeadlineBadge,
  EscalationBadge,
  LabelChips,
  PriorityBadge,
  RiskBadge,
  StatusBadge,
} from './interrupt-badges';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { TABLE_MIN_WIDTH } from '@/shared/utils/table-width';
import './inbox-table.css';

export interface InboxTableProps {
  interrupts: InterruptResponse[];
  answered: boolean;
  activeIndex: number;
  selected: ReadonlySet<string>;
  selectable: boolean;
  /** Stable across renders (a row redraws only when its own props change). */
  onToggle: (interrupt: InterruptResponse) => void;
  onToggleAll: (checked: boolean) => void;
  /** Stable across renders. */
  onFocusRow: (index: number) => void;
}

/**
 * The inbox rows. The keyboard cursor (j/k) is the row whose title link has focus.
 *
 * The rows are the first load's main cost (tools:bench-web), so each is plain elements styled by
 * inbox-table.css, with the browser's own checkbox, drawn by a memoised component: moving the
 * cursor or ticking a box redraws the rows it changes, not fifty.
 */
export const InboxTable = forwardRef<HTMLTableSectionElement, InboxTableProps>(function InboxTable(
  { interrupts, answered, activeIndex, selected, selectable, onToggle, onToggleAll, onFocusRow },
  ref,
) {
  const canWatch = useCan('session.read');
  const approvable = interrupts.filter(canApproveAll);
  const allSelected = approvable.length > 0 && approvable.every((i) => selected.has(i.id));
  const someSelected = !allSelected && approvable.some((i) => selected.has(i.id));
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        aria-label="Interrupts"
        layout="fixed"
        className="inbox-table"
      >
        <Table.Thead>
          <Table.Tr>
            {selectable && (
              <Table.Th w={40}>
                <input
                  type="checkbox"
                  className="inbox-checkbox"
                  aria-label="Select every interrupt that can be approved"
                  checked={allSelected}
                  ref={(box) => {
                    if (box) box.indeterminate = someSelected;
                  }}
                  disabled={approvable.length === 0}
                  onChange={(e) => onToggleAll(e.currentTarget.checked)}
                />
              </Table.Th>
            )}
            <Table.Th scope="col">Interrupt</Table.Th>
            <Table.Th scope="col" w="22%">
              Actions
            </Table.Th>
            <Table.Th scope="col" w="18%">
              Assignee
            </Table.Th>
            <Table.Th scope="col" w="14%">
              {answered ? 'Answered' : 'Opened'}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <tbody ref={ref}>
          {interrupts.map((it, index) => (
            <InboxRow
              key={it.id}
              interrupt={it}
              index={index}
              active={index === activeIndex}
              selected={selected.has(it.id)}
              selectable={selectable}
              answered={answered}
              canWatch={canWatch}
              onToggle={onToggle}
              onFocusRow={onFocusRow}
            />
          ))}
        </tbody>
      </Table>
    </Table.ScrollContainer>
  );
});

interface InboxRowProps {
  interrupt: InterruptResponse;
  index: number;
  active: boolean;
  selected: boolean;
  selectable: boolean;
  answered: boolean;
  canWatch: boolean;
  onToggle: (interrupt: InterruptResponse) => void;
  onFocusRow: (index: number) => void;
}

/** One interrupt: its title, badges, description and agent; its actions; assignee; time. */
const InboxRow = memo(function InboxRow({
  interrupt: it,
  index,
  active,
  selected,
  selectable,
  answered,
  canWatch,
  onToggle,
  onFocusRow,
}: InboxRowProps) {
  const approveAll = canApproveAll(it);
  const actionNames = it.actionRequests.map((a) => a.name).join(', ');
  return (
    <tr className={active ? 'interlock-row-selected' : undefined} data-interrupt-id={it.id}>
      {selectable && (
        <td>
          <input
            type="checkbox"
            className="inbox-checkbox"
            aria-label={
              approveAll ? `Select ${it.title}` : `${it.title} cannot be approved in bulk`
            }
            checked={selected}
            disabled={!approveAll}
            onChange={() => onToggle(it)}
          />
        </td>
      )}
      <td>
        <div className="inbox-title">
          <Link
            to={`/interrupts/${it.id}`}
            className="inbox-title-link"
            data-row-link
            onFocus={() => onFocusRow(index)}
            title={it.title}
          >
            {it.title}
          </Link>
          <PriorityBadge interrupt={it} />
          <RiskBadge interrupt={it} />
          <EscalationBadge interrupt={it} />
          <ArgusRowBadge interrupt={it} />
          <DeadlineBadge interrupt={it} />
          <ApprovalsBadge interrupt={it} />
          {(it.status === 'expired' || it.status === 'withdrawn') && (
            <StatusBadge status={it.status} />
          )}
          <LabelChips interrupt={it} />
        </div>
        {it.status === 'withdrawn' && (
          <div className="inbox-line">
            {it.withdrawnReason
              ? `Withdrawn: ${it.withdrawnReason}`
              : 'Withdrawn (no reason given)'}
          </div>
        )}
        {it.description !== null && (
          <div className="inbox-line" title={it.description.slice(0, 500)}>
            {it.description}
          </div>
        )}
        <AgentContext interrupt={it} canWatch={canWatch} />
      </td>
      <td>
        <div className="inbox-actions" title={actionNames}>
          {actionNames}
        </div>
        {!answered && it.decisions.length > 0 && (
          <div className="inbox-line">
            {undecidedActions(it).length} of {it.actionRequests.length} still to decide
          </div>
        )}
      </td>
      <td>
        {it.assignee ? (
          <AssigneeBadge assignee={it.assignee} />
        ) : (
          <span className="inbox-dimmed">Unassigned</span>
        )}
      </td>
      <td>
        <RelativeTime
          value={answered ? (it.answeredAt ?? it.closedAt ?? it.createdAt) : it.createdAt}
        />
      </td>
    </tr>
  );
});
