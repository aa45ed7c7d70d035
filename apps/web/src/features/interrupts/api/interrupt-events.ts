import type { OrganisationEvent } from '@interlock/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { interruptKeys } from './interrupts.queries';

/** An event of the organisation's stream (`GET /api/events`) about an interrupt. */
export type InterruptEvent = Pick<OrganisationEvent, 'type' | 'interrupt'>;

/**
 * Brings the cached inbox up to date after interrupt events: the lists and counts, and the
 * pages of the interrupts they name. Called with a burst of events at once.
 */
export async function applyInterruptEvents(
  queryClient: QueryClient,
  events: InterruptEvent[],
): Promise<void> {
  const ids = new Set(events.flatMap((e) => (e.interrupt ? [e.interrupt.id] : [])));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: interruptKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: interruptKeys.counts() }),
    ...[...ids].map((id) => queryClient.invalidateQueries({ queryKey: interruptKeys.detail(id) })),
  ]);
}

/** Everything of the inbox, after a fresh (re)connection or a reset. */
export function refreshInterrupts(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: interruptKeys.all });
}
