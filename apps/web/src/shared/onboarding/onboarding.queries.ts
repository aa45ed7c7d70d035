import { call, listApiKeys, listInterrupts } from '@interlock/api-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';

/**
 * The organisation's API keys (Integrations → Api Keys lists them with this query: one cache, so
 * creating a key moves the getting-started steps on at once).
 */
export const apiKeysListQuery = queryOptions({
  queryKey: ['api-keys', 'list'] as const,
  queryFn: async ({ signal }) => (await call(listApiKeys({ signal }))).apiKeys,
});

/**
 * The newest interrupt of a status (one row), under the inbox's list key so that what refreshes
 * the inbox — a live event, a decision — refreshes it too.
 */
const newestInterruptQuery = (status: 'open' | 'answered') =>
  queryOptions({
    queryKey: ['interrupts', 'list', { onboarding: status }] as const,
    queryFn: async ({ signal }) =>
      (await call(listInterrupts({ query: { status, limit: 1 }, signal }))).interrupts[0] ?? null,
  });

export type GettingStartedStep =
  | { step: 'key' }
  | { step: 'agent' }
  | { step: 'decide'; interrupt: { id: string; title: string } }
  | { step: 'done' };

/**
 * Where a new organisation is on its first run (issue 31 §7): no key yet → create one; a key but
 * no interrupt → run the agent; an open interrupt and none answered yet → decide it here; one
 * answered → done. Undefined while loading, or for a member who may not take the steps (create a
 * key, decide: a Manager would be told to press a "Create API key" that is not there for them).
 */
export function useGettingStarted(): GettingStartedStep | undefined {
  const [readKeys, createKeys] = [useCan('apiKey.read'), useCan('apiKey.create')];
  const [readInterrupts, decide] = [useCan('interrupt.read'), useCan('interrupt.decide')];
  const canKeys = readKeys && createKeys;
  const canInterrupts = readInterrupts && decide;
  const keys = useQuery({ ...apiKeysListQuery, enabled: canKeys });
  const answered = useQuery({ ...newestInterruptQuery('answered'), enabled: canInterrupts });
  const open = useQuery({ ...newestInterruptQuery('open'), enabled: canInterrupts });
  if (!canKeys || !canInterrupts) return undefined;
  if (answered.data === undefined || open.data === undefined || keys.data === undefined)
    return undefined;
  if (answered.data !== null) return { step: 'done' };
  if (open.data !== null)
    return { step: 'decide', interrupt: { id: open.data.id, title: open.data.title } };
  return keys.data.length === 0 ? { step: 'key' } : { step: 'agent' };
}
