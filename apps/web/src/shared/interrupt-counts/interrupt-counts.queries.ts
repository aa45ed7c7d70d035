import { call, countInterrupts } from '@interlock/api-client';
import { queryOptions } from '@tanstack/react-query';

/**
 * The inbox's tab counts (`GET /api/interrupts/counts`, one cheap call; each stops at `cap`).
 * Shared: the inbox's tabs, the tab title's count and the getting-started steps read this one
 * cache entry. Its key is the interrupts feature's `interruptKeys.counts()`, so what refreshes
 * the interrupts (a live event, a decision) refreshes it.
 */
export const interruptCountsQuery = queryOptions({
  queryKey: ['interrupts', 'counts'] as const,
  queryFn: ({ signal }) => call(countInterrupts({ signal })),
});
