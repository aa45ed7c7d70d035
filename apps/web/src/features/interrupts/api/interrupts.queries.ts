import {
  alwaysAllowAction,
  applyClassificationSuggestion,
  assignInterrupt,
  call,
  decideInterrupt,
  escalateInterrupt,
  extendInterruptDeadline,
  getClassificationRule,
  getInterrupt,
  listClassificationSuggestions,
  listInterrupts,
  setInterruptPriority,
  type AlwaysAllowDto,
  type AssignInterruptDto,
  type DecideInterruptDto,
  type InterruptListResponse,
  type InterruptResponse,
  type ListInterruptsData,
  type Priority,
} from '@interlock/api-client';
import {
  infiniteQueryOptions,
  type InfiniteData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { interruptCountsQuery } from '@/shared/interrupt-counts/interrupt-counts.queries';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';

export type InboxFilters = NonNullable<
  Omit<NonNullable<ListInterruptsData['query']>, 'cursor' | 'limit'>
>;

export const interruptKeys = {
  all: ['interrupts'] as const,
  lists: () => [...interruptKeys.all, 'list'] as const,
  list: (filters: InboxFilters) => [...interruptKeys.lists(), filters] as const,
  counts: () => [...interruptKeys.all, 'counts'] as const,
  details: () => [...interruptKeys.all, 'detail'] as const,
  detail: (id: string) => [...interruptKeys.details(), id] as const,
};

export const INBOX_PAGE_SIZE = 50;

export const interruptListQuery = (filters: InboxFilters) =>
  infiniteQueryOptions({
    queryKey: interruptKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      call(
        listInterrupts({
          query: { ...filters, limit: INBOX_PAGE_SIZE, cursor: pageParam ?? undefined },
          signal,
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export { interruptCountsQuery };

/** The inbox: one tab and its filters, a page at a time (cursor paging, endless scroll). */
export function useInterruptList(filters: InboxFilters) {
  return useInfiniteQuery(interruptListQuery(filters));
}

/** The tab counts, in one cheap call (they stop at `cap`). */
export function useInterruptCounts() {
  return useQuery(interruptCountsQuery);
}

export type InboxTab = 'open' | 'mine' | 'escalated' | 'answered';
export const INBOX_TABS: InboxTab[] = ['open', 'mine', 'escalated', 'answered'];

/** The inbox's tab and filters from its address (`?tab=…&q=…&order=newest|oldest|deadline&assignee=…&closed=…&priority=…&label=…`). */
export function inboxFromParams(params: URLSearchParams): { tab: InboxTab; filters: InboxFilters } {
  const raw = params.get('tab');
  const tab: InboxTab = INBOX_TABS.includes(raw as InboxTab) ? (raw as InboxTab) : 'open';
  const order = params.get('order');
  const filters: InboxFilters = {
    ...tabFilters(tab),
    order: order === 'oldest' || order === 'deadline' ? order : 'newest',
  };
  const q = params.get('q')?.trim() ?? '';
  if (q !== '') filters.q = q;
  const assignee = params.get('assignee');
  if (tab === 'open' && (assignee === 'unassigned' || assignee === 'my_teams'))
    filters.assignee = assignee;
  // The Answered tab also lists the interrupts closed another way (`?closed=expired|withdrawn`).
  const closed = params.get('closed');
  if (tab === 'answered' && (closed === 'expired' || closed === 'withdrawn'))
    filters.status = closed;
  // Priorities as a comma list, known ones only, each once, lowest first (`?priority=high,urgent`).
  const priorities = PRIORITIES.filter((p) =>
    (params.get('priority') ?? '').split(',').includes(p),
  );
  if (priorities.length > 0) filters.priority = priorities.join(',');
  // One label, exactly (the API's label alphabet; anything else is ignored).
  const label = params.get('label') ?? '';
  if (LABEL.test(label)) filters.label = label;
  return { tab, filters };
}

/** The priorities an interrupt may have (SPEC §8e), lowest first. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/** What a label may be (SPEC §8e): 1 to 50 ASCII letters, digits and _ . : / + -. */
export const LABEL = /^[A-Za-z0-9_.:/+-]{1,50}$/;

function tabFilters(tab: InboxTab): InboxFilters {
  switch (tab) {
    case 'mine':
      return { status: 'open', assignee: 'me' };
    case 'escalated':
      return { status: 'open', escalated: true };
    case 'answered':
      return { status: 'answered' };
    default:
      return { status: 'open' };
  }
}

/** Starts the inbox's reads as soon as navigation starts (in parallel with loading its code). */
export function prefetchInbox(queryClient: QueryClient, params: URLSearchParams): void {
  const { filters } = inboxFromParams(params);
  void queryClient.prefetchInfiniteQuery(interruptListQuery(filters));
  void queryClient.prefetchQuery(interruptCountsQuery);
}

/** `include=history` and `include=argus` answer at most this many entries, the latest (the contract says so). */
export const INTERRUPT_HISTORY_MAX = 100;

/**
 * One interrupt with its decisions, linked session, argus's receipts, what its escalation
 * policy did and where its resumeUrl's POST stands (`include=argus`, `include=escalation`,
 * `include=resume`: anyone who may read it), and its history when the member may read the audit log (history is audit
 * entries: the API answers 403 without `auditLog.read`).
 */
export function useInterrupt(id: string, withHistory: boolean) {
  return useQuery({
    queryKey: [...interruptKeys.detail(id), { withHistory }],
    queryFn: ({ signal }) =>
      call(
        getInterrupt({
          path: { id },
          query: {
            include: withHistory
              ? ['history', 'session', 'argus', 'escalation', 'resume']
              : ['session', 'argus', 'escalation', 'resume'],
          },
          signal,
        }),
      ),
  });
}

/** What changes when an interrupt changes: the lists, the counts and its page. */
export function invalidateInterrupt(queryClient: QueryClient, id?: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: interruptKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: interruptKeys.counts() }),
    id === undefined
      ? queryClient.invalidateQueries({ queryKey: interruptKeys.details() })
      : queryClient.invalidateQueries({ queryKey: interruptKeys.detail(id) }),
  ]);
}

export function useDecide() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DecideInterruptDto }) =>
      call(decideInterrupt({ path: { id }, body })),
    // A 409 (a colleague decided first) also changes what to show: refresh either way.
    onSettled: (_data, _error, { id }) => invalidateInterrupt(queryClient, id),
  });
}

/**
 * "Always allow this": the rule (this key, this action, these argument conditions, an expiry),
 * then the approval of the action at hand.
 */
export function useAlwaysAllow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlwaysAllowDto) => {
      const rule = await call(alwaysAllowAction({ body }));
      const interrupt = await call(
        decideInterrupt({
          path: { id: body.interruptId },
          body: { actionName: body.actionName, decision: 'approve' },
        }),
      );
      return { rule, interrupt };
    },
    onSettled: (_data, _error, body) => {
      void queryClient.invalidateQueries({ queryKey: ['classification'] });
      return invalidateInterrupt(queryClient, body.interruptId);
    },
  });
}

/** Approves every undecided action of an interrupt, one decision each (the API decides per action). */
export function useApproveAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (interrupt: InterruptResponse) => {
      let latest = interrupt;
      for (const action of undecidedActions(interrupt)) {
        latest = await call(
          decideInterrupt({
            path: { id: interrupt.id },
            body: { actionName: action.name, decision: 'approve' },
          }),
        );
      }
      return latest;
    },
    onSettled: (_data, _error, interrupt) => invalidateInterrupt(queryClient, interrupt.id),
  });
}

export function useAssign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AssignInterruptDto }) =>
      call(assignInterrupt({ path: { id }, body })),
    onSettled: (_data, _error, { id }) => invalidateInterrupt(queryClient, id),
  });
}

export function useEscalate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason?: string }) =>
      call(escalateInterrupt({ path: { id }, body: reason ? { reason } : {} })),
    onSettled: (_data, _error, { id }) => invalidateInterrupt(queryClient, id),
  });
}

/** Changes how urgent an open interrupt is (SPEC §8e; members with `interrupt.assign`). */
export function useSetPriority() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, priority }: { id: string; priority: Priority }) =>
      call(setInterruptPriority({ path: { id }, body: { priority } })),
    onSettled: (_data, _error, { id }) => invalidateInterrupt(queryClient, id),
  });
}

/** Moves an open interrupt's deadline to `timeoutSeconds` from now (SPEC §8e; later than the current one). */
export function useExtendDeadline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, timeoutSeconds }: { id: string; timeoutSeconds: number }) =>
      call(extendInterruptDeadline({ path: { id }, body: { timeoutSeconds } })),
    onSettled: (_data, _error, { id }) => invalidateInterrupt(queryClient, id),
  });
}

/** The action requests that have no decision yet. */
export function undecidedActions(interrupt: InterruptResponse) {
  const decided = new Set(interrupt.decisions.map((d) => d.actionName));
  return interrupt.actionRequests.filter((a) => !decided.has(a.name));
}

/** True when `a` (or a bulk approve) may approve it: open, and every undecided action allows approve. */
export function canApproveAll(interrupt: InterruptResponse): boolean {
  const open = undecidedActions(interrupt);
  return (
    interrupt.status === 'open' &&
    open.length > 0 &&
    open.every((a) => a.allowedDecisions.includes('approve'))
  );
}

/**
 * The open interrupt to decide after `currentId`: the one after it in an inbox list this tab
 * already shows (so "next" follows the tab, search and order the person chose), else the
 * newest open one.
 */
export async function nextOpenInterrupt(
  queryClient: QueryClient,
  currentId: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<InterruptResponse | undefined> {
  const usable = (i: InterruptResponse) =>
    i.id !== currentId && i.status === 'open' && !skip.has(i.id);
  // Not every query under the list key is a paged inbox: the welcome's newest open interrupt is
  // one row kept there so that the inbox's refreshes reach it (run S: `pages` of it was undefined).
  for (const [, data] of queryClient.getQueriesData<
    InfiniteData<InterruptListResponse> | InterruptResponse | null
  >({ queryKey: interruptKeys.lists() })) {
    if (data === undefined || data === null || !('pages' in data)) continue;
    const items = data.pages.flatMap((p) => p.interrupts);
    const at = items.findIndex((i) => i.id === currentId);
    if (at < 0) continue;
    const next = [...items.slice(at + 1), ...items.slice(0, at)].find(usable);
    if (next !== undefined) return next;
  }
  const fresh = await call(listInterrupts({ query: { status: 'open', limit: 5 } }));
  return fresh.interrupts.find(usable);
}

/**
 * The name of one classification rule (argus's receipts name the rules that matched), for a member
 * who may read the rules; undefined otherwise, while loading, or once the rule is deleted (the
 * receipt shows its id). Reads that one rule, under the key Settings → Classification caches it by.
 */
export function useRuleName(ruleId: string | undefined): string | undefined {
  const canRead = useCan('classification.read');
  const rule = useQuery(ruleQuery(ruleId ?? '', canRead && ruleId !== undefined));
  return ruleId === undefined ? undefined : rule.data?.name;
}

/** One rule, read by its id, under the key Settings → Classification caches it by. */
const ruleQuery = (id: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['classification', 'rule', id],
    queryFn: () => call(getClassificationRule({ path: { id } })),
    enabled,
    staleTime: 60_000,
  });

/** `useRuleName` for several rules at once (an inbox row names every rule that decided in it). */
export function useRuleNames(ruleIds: readonly string[]): (string | undefined)[] {
  const canRead = useCan('classification.read');
  const unique = [...new Set(ruleIds)];
  const names = useQueries({
    queries: unique.map((id) => ruleQuery(id, canRead)),
    combine: (results) => results.map((r) => r.data?.name),
  });
  return ruleIds.map((id) => names[unique.indexOf(id)]);
}

/**
 * Rules argus suggests (SPEC §8d), for the interrupt page's decision cards: read only by a member
 * who may read the rules, under the key Settings → Classification caches them by.
 */
export function useRuleSuggestions() {
  const canRead = useCan('classification.read');
  return useQuery({
    queryKey: ['classification', 'suggestions'],
    queryFn: () => call(listClassificationSuggestions()),
    enabled: canRead,
    staleTime: 60_000,
  });
}

/** Makes a suggested rule, in the mode the person picked, from the interrupt page. */
export function useApplyRuleSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mode }: { id: string; mode: 'shadow' | 'enforce' }) =>
      call(applyClassificationSuggestion({ path: { id }, body: { mode } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['classification'] }),
  });
}
