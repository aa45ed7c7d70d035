import { startTransition, useEffect, useState } from 'react';

/**
 * A long list drawn in two steps: the first `first` items at once, the rest in a transition right
 * after that is painted (interruptible: input and paint go first). The inbox's 50 rows of badges
 * and links are most of its first load's main-thread work; the rows a screen shows are ready
 * sooner, and the others follow while the reviewer reads (tools:bench-web, BENCHMARKS.md).
 * Once the whole list has been drawn, later lists (a new page, a live update) are drawn whole.
 */
export function useRenderFirst<T>(items: T[], first: number): T[] {
  const [whole, setWhole] = useState(false);
  const cut = !whole && items.length > first;
  useEffect(() => {
    if (cut) startTransition(() => setWhole(true));
  }, [cut]);
  return cut ? items.slice(0, first) : items;
}
