import type { OrganisationEvent } from '@interlock/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { sessionKeys } from './sessions.queries';

/** An event of the organisation's stream about a session. */
export type SessionEvent = Pick<OrganisationEvent, 'type' | 'session'>;

/** The sessions list and the sessions the events name. */
export async function applySessionEvents(
  queryClient: QueryClient,
  events: SessionEvent[],
): Promise<void> {
  const ids = new Set(events.flatMap((e) => (e.session ? [e.session.id] : [])));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: sessionKeys.lists() }),
    ...[...ids].map((id) => queryClient.invalidateQueries({ queryKey: sessionKeys.detail(id) })),
  ]);
}

export function refreshSessions(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: sessionKeys.all });
}
