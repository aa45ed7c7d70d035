import type { QueryClient } from '@tanstack/react-query';
import { setActiveOrganisation } from './active-organisation';
import { meKey } from './me.queries';

/**
 * Makes this tab act for another organisation: nothing cached belongs to it (the person's own
 * account aside), so every read starts again with the new `x-organisation-id`.
 */
export async function switchOrganisation(
  queryClient: QueryClient,
  organisationId: string,
): Promise<void> {
  const isMe = (key: readonly unknown[]) => key[0] === meKey[0] && key[1] === meKey[1];
  await queryClient.cancelQueries({ predicate: (q) => !isMe(q.queryKey) });
  setActiveOrganisation(organisationId);
  queryClient.removeQueries({ predicate: (q) => !isMe(q.queryKey) });
}
