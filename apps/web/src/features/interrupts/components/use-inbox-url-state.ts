import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { inboxFromParams } from '../api/interrupts.queries';

/**
 * The inbox's state that lives in the URL (so a reload, a link or Back shows the same list):
 * the tab, order, assignee, closed-as, priority and label filters, and the title search (typed
 * at once, written to `?q=` 250 ms after the typing stops).
 */
export function useInboxUrlState() {
  const [params, setParams] = useSearchParams();
  const { tab, filters } = useMemo(() => inboxFromParams(params), [params]);
  const order = filters.order ?? 'newest';
  const assignee = tab === 'open' ? (params.get('assignee') ?? null) : null;
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [q] = useDebouncedValue(search.trim(), 250);

  /** Sets (or with null/'' removes) one parameter, replacing the history entry. */
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

  /** Whether the list is narrowed by what the reader typed or chose (an empty list then says so). */
  const filtered =
    q !== '' ||
    (tab === 'open' && assignee !== null) ||
    filters.priority !== undefined ||
    filters.label !== undefined;
  return { tab, filters, order, assignee, search, setSearch, setParam, filtered };
}

export type InboxUrlState = ReturnType<typeof useInboxUrlState>;
