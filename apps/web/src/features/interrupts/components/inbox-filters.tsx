import { Badge, Group, NativeSelect, Tabs, TextInput } from '@mantine/core';
import type { InboxTab } from '../api/interrupts.queries';
import { useInterruptCounts } from '../api/interrupts.queries';
import type { InboxUrlState } from './use-inbox-url-state';

const TABS: {
  value: InboxTab;
  label: string;
  count: 'open' | 'assignedToMe' | 'escalated' | 'answered';
}[] = [
  { value: 'open', label: 'Open', count: 'open' },
  { value: 'mine', label: 'Assigned to me', count: 'assignedToMe' },
  { value: 'escalated', label: 'Escalated', count: 'escalated' },
  { value: 'answered', label: 'Answered', count: 'answered' },
];

const PRIORITY_FILTERS = [
  { value: 'any', label: 'Any priority' },
  { value: 'urgent', label: 'Urgent' },
  { value: 'high,urgent', label: 'High or urgent' },
  { value: 'normal', label: 'Normal' },
  { value: 'low', label: 'Low' },
];

/** The inbox's tabs, each with its live count ("1,000+" when the count stopped early). */
export function InboxTabs({ tab, setParam }: Pick<InboxUrlState, 'tab' | 'setParam'>) {
  const counts = useInterruptCounts();
  const countLabel = (key: (typeof TABS)[number]['count']) => {
    const c = counts.data?.[key];
    return c === undefined ? '' : `${c.count}${c.capped ? '+' : ''}`;
  };
  return (
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
  );
}

/**
 * Search, order, and the tab's own filter (assignee on Open, how it closed on Answered). The
 * choices are the browser's own selects: a handful of fixed options needs no dropdown of ours,
 * and Mantine's Select mounted and positioned its hidden dropdowns on every inbox load (~135 ms
 * of the first load's main thread for two of them, BENCHMARKS.md "The dashboard").
 */
export function InboxFilters({
  tab,
  filters,
  order,
  assignee,
  search,
  setSearch,
  setParam,
}: InboxUrlState) {
  return (
    <Group mt="md" mb="sm" gap="sm" align="flex-end">
      <TextInput
        label="Search titles"
        placeholder="Words the title starts with"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={280}
        type="search"
      />
      <NativeSelect
        label="Order"
        w={160}
        data={[
          { value: 'newest', label: 'Newest first' },
          { value: 'oldest', label: 'Oldest first' },
          { value: 'deadline', label: 'Due soonest' },
        ]}
        value={order}
        onChange={(e) => {
          const v = e.currentTarget.value;
          setParam('order', v === 'oldest' || v === 'deadline' ? v : null);
        }}
      />
      {tab === 'open' && (
        <NativeSelect
          label="Assignee"
          w={190}
          data={[
            { value: 'any', label: 'Anyone or nobody' },
            { value: 'unassigned', label: 'Unassigned' },
            { value: 'my_teams', label: 'My teams' },
          ]}
          value={assignee ?? 'any'}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParam('assignee', v === 'any' ? null : v);
          }}
        />
      )}
      <NativeSelect
        label="Priority"
        w={170}
        data={PRIORITY_FILTERS}
        value={filters.priority ?? 'any'}
        onChange={(e) => {
          const v = e.currentTarget.value;
          setParam('priority', v === 'any' ? null : v);
        }}
      />
      <TextInput
        // A new address (Back, a link) starts the field again from it.
        key={filters.label ?? ''}
        label="Label"
        placeholder="Exactly, e.g. billing"
        w={170}
        defaultValue={filters.label ?? ''}
        // Applied on Enter or on leaving the field (a label is matched whole, not as typed).
        onKeyDown={(e) => {
          if (e.key === 'Enter') setParam('label', e.currentTarget.value.trim());
        }}
        onBlur={(e) => setParam('label', e.currentTarget.value.trim())}
      />
      {tab === 'answered' && (
        <NativeSelect
          label="Closed as"
          w={170}
          data={[
            { value: 'answered', label: 'Answered' },
            { value: 'expired', label: 'Expired' },
            { value: 'withdrawn', label: 'Withdrawn' },
          ]}
          value={filters.status ?? 'answered'}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParam('closed', v === 'expired' || v === 'withdrawn' ? v : null);
          }}
        />
      )}
    </Group>
  );
}
