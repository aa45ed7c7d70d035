import type { InterruptResponse } from '@interlock/api-client';
import { useCallback, useEffect, useState } from 'react';
import { canApproveAll } from '../api/interrupts.queries';

/**
 * The rows ticked for bulk approval. A new tab or filter (`resetOn`) starts with none; "all"
 * ticks only the interrupts whose every undecided action may be approved.
 */
export function useInboxSelection(interrupts: InterruptResponse[], resetOn: unknown) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // An empty selection stays the same Set: on the first load this runs once with nothing ticked,
  // and a new Set would draw the whole inbox page a second time (tools:bench-web).
  useEffect(() => setSelected((s) => (s.size === 0 ? s : new Set())), [resetOn]);
  // Stable, so that the inbox's memoised rows keep theirs.
  const toggle = useCallback(
    (it: InterruptResponse) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(it.id)) next.delete(it.id);
        else next.add(it.id);
        return next;
      }),
    [],
  );
  return {
    selected,
    toggle,
    toggleAll: (checked: boolean) =>
      setSelected(checked ? new Set(interrupts.filter(canApproveAll).map((i) => i.id)) : new Set()),
    clear: () => setSelected(new Set()),
    /** The selected interrupts still in the list, in its order. */
    chosen: () => interrupts.filter((i) => selected.has(i.id)),
  };
}
