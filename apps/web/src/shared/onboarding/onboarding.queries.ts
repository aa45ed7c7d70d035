import { call, listApiKeys, listInterrupts } from '@interlock/api-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { interruptCountsQuery } from '@/shared/interrupt-counts/interrupt-counts.queries';
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
 * The newest open interrupt (one row), under the inbox's list key so that what refreshes the
 * inbox — a live event, a decision — refreshes it too.
 */
const newestOpenInterruptQuery = queryOptions({
  queryKey: ['interrupts', 'list', { onboarding: 'open' }] as const,
  queryFn: async ({ signal }) =>
    (await call(listInterrupts({ query: { status: 'open', limit: 1 }, signal }))).interrupts[0] ??
    null,
});

export type GettingStartedStep =
  | { step: 'key' }
  | { step: 'agent' }
  | { step: 'decide'; interrupt: { id: string; title: string } }
  | { step: 'done' };

/**
 * Where a new organisation is on its first run (issue 31 §7): no key yet → create one; a key but
 * no interrupt → run the agent; an open interrupt and none answered yet → decide it here; one
 * answered → done. Undefined while loading, when not `wanted` (dismissed: nothing is read), or
 * for a member who may not take the steps (create a key, decide: a Manager would be told to
 * press a "Create API key" that is not there for them).
 *
 * It starts from the inbox's tab counts, which the inbox has read already: an organisation that
 * answered an interrupt reads nothing more; one with open interrupts reads the newest (to link
 * it); only one with none reads its keys. On the inbox's first load that leaves the page's own
 * reads (tools:bench-web), where three reads of its own used to answer after the first paint.
 */
export function useGettingStarted(wanted = true): GettingStartedStep | undefined {
  const [readKeys, createKeys] = [useCan('apiKey.read'), useCan('apiKey.create')];
  const [readInterrupts, decide] = [useCan('interrupt.read'), useCan('interrupt.decide')];
  const allowed = wanted && readKeys && createKeys && readInterrupts && decide;
  const counts = useQuery({ ...interruptCountsQuery, enabled: allowed });
  const answered = counts.data === undefined ? undefined : counts.data.answered.count > 0;
  const anyOpen = counts.data === undefined ? undefined : counts.data.open.count > 0;
  const open = useQuery({
    ...newestOpenInterruptQuery,
    enabled: allowed && answered === false && anyOpen === true,
  });
  const keys = useQuery({
    ...apiKeysListQuery,
    enabled: allowed && answered === false && anyOpen === false,
  });
  if (!allowed || answered === undefined) return undefined;
  if (answered) return { step: 'done' };
  if (anyOpen) {
    if (open.data === undefined) return undefined;
    // Answered or withdrawn since the counts were read: the counts' refresh moves the step on.
    if (open.data === null) return undefined;
    return { step: 'decide', interrupt: { id: open.data.id, title: open.data.title } };
  }
  if (keys.data === undefined) return undefined;
  return keys.data.length === 0 ? { step: 'key' } : { step: 'agent' };
}
