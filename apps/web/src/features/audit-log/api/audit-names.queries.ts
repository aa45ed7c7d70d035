import {
  call,
  getInterrupt,
  listApiKeys,
  listClassificationRules,
  listInterrupts,
  listMembers,
  listRoles,
  listSessions,
  listTeams,
  listWebhooks,
  retrieveSession,
  type ActorType,
  type TargetType,
} from '@interlock/api-client';
import type { ComboboxItemGroup } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { dateTime } from '@/shared/utils/format';

/** Names to pick a member, key, team or role by, read only when the reader may list them. */
function useNames() {
  const can = {
    members: useCan('member.manage'),
    assign: useCan('interrupt.assign'),
    keys: useCan('apiKey.read'),
    teams: useCan('team.manage'),
    invite: useCan('member.invite'),
    roles: useCan('role.manage'),
  };
  const members = useQuery({
    queryKey: ['audit-names', 'members'],
    queryFn: async () => (await call(listMembers())).members,
    enabled: can.members || can.assign,
    staleTime: 60_000,
  });
  const keys = useQuery({
    queryKey: ['audit-names', 'api-keys'],
    queryFn: async () => (await call(listApiKeys())).apiKeys,
    enabled: can.keys,
    staleTime: 60_000,
  });
  const teams = useQuery({
    queryKey: ['audit-names', 'teams'],
    queryFn: async () => (await call(listTeams())).teams,
    enabled: can.teams || can.assign,
    staleTime: 60_000,
  });
  const roles = useQuery({
    queryKey: ['audit-names', 'roles'],
    queryFn: async () => (await call(listRoles())).roles,
    enabled: can.invite || can.roles,
    staleTime: 60_000,
  });
  return {
    members: members.data?.map((m) => ({ value: m.id, label: `${m.name} (${m.email})` })),
    keys: keys.data?.map((k) => ({ value: k.id, label: `${k.name} (${k.start}…)` })),
    teams: teams.data?.map((t) => ({ value: t.id, label: t.name })),
    roles: roles.data?.map((r) => ({ value: r.id, label: r.name })),
  };
}

type Groups = ComboboxItemGroup<{ value: string; label: string }>[];
const group = (name: string, items: { value: string; label: string }[] | undefined): Groups =>
  items === undefined || items.length === 0 ? [] : [{ group: name, items }];

/**
 * Who an entry's actor can be picked from, by name: members and API keys (only the kind the
 * actor-type filter names). Empty when the reader may list neither, or the type has no names
 * (the system, argus): the page then offers the id field.
 */
export function useActorChoices(actorType: ActorType | undefined): Groups {
  const names = useNames();
  return [
    ...(actorType === undefined || actorType === 'member' ? group('Members', names.members) : []),
    ...(actorType === undefined || actorType === 'api_key' ? group('API keys', names.keys) : []),
  ];
}

/** The target types too many to list whole: read by search, as the API finds them by `q`. */
type SearchedType = 'interrupt' | 'session';

type Choice = { value: string; label: string };

/** A session's label carries when it started: agents give many runs the same name. */
const sessionChoice = (s: { id: string; name: string; startedAt: string }): Choice => ({
  value: s.id,
  label: `${s.name} (started ${dateTime(s.startedAt)})`,
});
const interruptChoice = (i: { id: string; title: string }): Choice => ({
  value: i.id,
  label: i.title,
});

/**
 * Targets too many to list whole, read by search (20 at most) only while something is typed:
 * interrupts by words of their title (the inbox's title search), sessions by words of their name
 * or the beginning of their id — both the API's word-prefix search, `q`. Picking an option puts
 * its label in the field: text that is the label of a choice already read shows those choices
 * again rather than searching for the label (a session's would not find itself). The target
 * already picked (a link from an interrupt's page names it by id) is read by id and comes first,
 * so the picker shows its title or name, not its id.
 */
function useSearchedTargets(
  type: SearchedType | undefined,
  search: string,
  pickedId: string | undefined,
): Choice[] {
  const q = search.trim();
  const key = ['audit-names', type];
  const picked = useQueryClient()
    .getQueriesData<Choice[]>({ queryKey: key })
    .map(([, choices]) => choices)
    .find((choices) => choices?.some((c) => c.label === q));
  const found = useQuery({
    queryKey: [...key, q],
    queryFn: async ({ signal }): Promise<Choice[]> => {
      const query = { q, limit: 20 };
      if (type === 'session')
        return (await call(listSessions({ query, signal }))).sessions.map(sessionChoice);
      return (await call(listInterrupts({ query, signal }))).interrupts.map(interruptChoice);
    },
    enabled: type !== undefined && q !== '' && picked === undefined,
    staleTime: 30_000,
  });
  const choices = picked ?? found.data ?? [];
  const listed = choices.some((c) => c.value === pickedId);
  // Under the same key as the searches (a list of one), so its label in the field finds it again.
  const own = useQuery({
    queryKey: [...key, 'id', pickedId],
    queryFn: async ({ signal }): Promise<Choice[]> => {
      const path = { id: pickedId ?? '' };
      if (type === 'session') return [sessionChoice(await call(retrieveSession({ path, signal })))];
      return [interruptChoice(await call(getInterrupt({ path, signal })))];
    },
    enabled: type !== undefined && pickedId !== undefined && !listed,
    staleTime: 60_000,
  });
  const first = own.data?.[0];
  return first === undefined || first.value !== pickedId || listed ? choices : [first, ...choices];
}

/** Webhooks (by address) and classification rules (by name): short lists, read only when picked. */
function useListedTargets(targetType: TargetType | undefined) {
  const canWebhooks = useCan('webhook.manage');
  const canRules = useCan('classification.read');
  const webhooks = useQuery({
    queryKey: ['audit-names', 'webhooks'],
    queryFn: async ({ signal }) => (await call(listWebhooks({ signal }))).webhooks,
    enabled: canWebhooks && targetType === 'webhook',
    staleTime: 60_000,
  });
  const rules = useQuery({
    queryKey: ['audit-names', 'rules'],
    queryFn: async () => (await call(listClassificationRules())).rules,
    enabled: canRules && targetType === 'classification',
    staleTime: 60_000,
  });
  return {
    webhooks: webhooks.data?.map((w) => ({
      value: w.id,
      label: w.description === '' ? w.url : `${w.url} (${w.description})`,
    })),
    rules: rules.data?.map((r) => ({ value: r.id, label: r.name })),
  };
}

/** What the picker says of a searched target type: how it is found, what to type, none found. */
export interface TargetSearch {
  description: string;
  hint: string;
  nothingFound: string;
}

const SEARCHES: Record<SearchedType, TargetSearch> = {
  interrupt: {
    description: 'Search by title; any when empty',
    hint: 'Type words of the title',
    nothingFound: 'No interrupt with that title',
  },
  session: {
    description: 'Search by name or id; any when empty',
    hint: 'Type words of the name, or the id',
    nothingFound: 'No session with that name or id',
  },
};

export interface TargetChoices {
  choices: Groups;
  /** Set when the choices come from what is typed (interrupts, sessions): the picker stays even when empty. */
  search?: TargetSearch;
}

/**
 * What an entry's target can be picked from, by name, for the chosen target type (no choices and
 * no search: use the id). `search` is what the picker's field holds; `targetId` the one picked.
 */
export function useTargetChoices(
  targetType: TargetType | undefined,
  search: string,
  targetId: string | undefined,
): TargetChoices {
  const names = useNames();
  const listed = useListedTargets(targetType);
  const canInterrupts = useCan('interrupt.read');
  const canSessions = useCan('session.read');
  const searched: SearchedType | undefined =
    (targetType === 'interrupt' && canInterrupts) || (targetType === 'session' && canSessions)
      ? targetType
      : undefined;
  const found = useSearchedTargets(searched, search, targetId);
  const of = (choices: Groups): TargetChoices => ({ choices });
  if (searched !== undefined)
    return {
      choices: group(searched === 'session' ? 'Sessions' : 'Interrupts', found),
      search: SEARCHES[searched],
    };
  switch (targetType) {
    case 'user':
      return of(group('Members', names.members));
    case 'api_key':
      return of(group('API keys', names.keys));
    case 'team':
      return of(group('Teams', names.teams));
    case 'role':
      return of(group('Roles', names.roles));
    case 'webhook':
      return of(group('Webhooks', listed.webhooks));
    case 'classification':
      return of(group('Rules', listed.rules));
    default:
      return of([]);
  }
}
