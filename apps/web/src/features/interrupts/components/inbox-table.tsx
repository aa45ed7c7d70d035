import type { InterruptResponse } from '@interlock/api-client';
import { Anchor, Checkbox, Group, Table, Text } from '@mantine/core';
import { forwardRef } from 'react';
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

export interface InboxTableProps {
  interrupts: InterruptResponse[];
  answered: boolean;
  activeIndex: number;
  selected: ReadonlySet<string>;
  selectable: boolean;
  onToggle: (interrupt: InterruptResponse) => void;
  onToggleAll: (checked: boolean) => void;
  onFocusRow: (index: number) => void;
}

/** The inbox rows. The keyboard cursor (j/k) is the row whose title link has focus. */
export const InboxTable = forwardRef<HTMLTableSectionElement, InboxTableProps>(function InboxTable(
  { interrupts, answered, activeIndex, selected, selectable, onToggle, onToggleAll, onFocusRow },
  ref,
) {
  const canWatch = useCan('session.read');
  const approvable = interrupts.filter(canApproveAll);
  const allSelected = approvable.length > 0 && approvable.every((i) => selected.has(i.id));
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Interrupts" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            {selectable && (
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select every interrupt that can be approved"
                  checked={allSelected}
                  indeterminate={!allSelected && approvable.some((i) => selected.has(i.id))}
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
        <Table.Tbody ref={ref}>
          {interrupts.map((it, index) => {
            const pending = undecidedActions(it);
            const approveAll = canApproveAll(it);
            return (
              <Table.Tr
                key={it.id}
                className={index === activeIndex ? 'interlock-row-selected' : undefined}
                data-interrupt-id={it.id}
              >
                {selectable && (
                  <Table.Td>
                    <Checkbox
                      aria-label={
                        approveAll ? `Select ${it.title}` : `${it.title} cannot be approved in bulk`
                      }
                      checked={selected.has(it.id)}
                      disabled={!approveAll}
                      onChange={() => onToggle(it)}
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <Group gap={6} miw={0}>
                    <Anchor
                      component={Link}
                      to={`/interrupts/${it.id}`}
                      fw={500}
                      size="sm"
                      data-row-link
                      onFocus={() => onFocusRow(index)}
                      title={it.title}
                      lineClamp={2}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {it.title}
                    </Anchor>
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
                  </Group>
                  {it.status === 'withdrawn' && (
                    <Text size="xs" c="dimmed" lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
                      {it.withdrawnReason
                        ? `Withdrawn: ${it.withdrawnReason}`
                        : 'Withdrawn (no reason given)'}
                    </Text>
                  )}
                  {it.description !== null && (
                    <Text
                      size="xs"
                      c="dimmed"
                      lineClamp={1}
                      style={{ overflowWrap: 'anywhere' }}
                      title={it.description.slice(0, 500)}
                    >
                      {it.description}
                    </Text>
                  )}
                  <AgentContext interrupt={it} canWatch={canWatch} />
                </Table.Td>
                <Table.Td>
                  <Text
                    size="sm"
                    lineClamp={2}
                    style={{ overflowWrap: 'anywhere' }}
                    title={it.actionRequests.map((a) => a.name).join(', ')}
                  >
                    {it.actionRequests.map((a) => a.name).join(', ')}
                  </Text>
                  {!answered && it.decisions.length > 0 && (
                    <Text size="xs" c="dimmed">
                      {pending.length} of {it.actionRequests.length} still to decide
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {it.assignee ? (
                    <AssigneeBadge assignee={it.assignee} />
                  ) : (
                    <Text size="xs" c="dimmed">
                      Unassigned
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    <RelativeTime
                      value={
                        answered ? (it.answeredAt ?? it.closedAt ?? it.createdAt) : it.createdAt
                      }
                    />
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});
