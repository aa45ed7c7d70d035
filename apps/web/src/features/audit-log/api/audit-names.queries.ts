import {
  call,
  listApiKeys,
  listClassificationRules,
  listInterrupts,
  listMembers,
  listRoles,
  listTeams,
  listWebhooks,
  type ActorType,
  type TargetType,
} from '@interlock/api-client';
import type { ComboboxItemGroup } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';

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

/**
 * Targets too many to list whole, read by search: interrupts by title (the inbox's own word-prefix
 * search, `q`, 20 at most), only while something is typed and the target type is interrupt.
 */
function useInterruptTitles(enabled: boolean, search: string) {
  const q = search.trim();
  const found = useQuery({
    queryKey: ['audit-names', 'interrupts', q],
    queryFn: async ({ signal }) =>
      (await call(listInterrupts({ query: { q, limit: 20 }, signal }))).interrupts,
    enabled: enabled && q !== '',
    staleTime: 30_000,
  });
  return found.data?.map((i) => ({ value: i.id, label: i.title }));
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

export interface TargetChoices {
  choices: Groups;
  /** Whether the choices come from what is typed (interrupts): the picker stays even when empty. */
  searched: boolean;
}

/**
 * What an entry's target can be picked from, by name, for the chosen target type (no choices and
 * not searched: use the id). `search` is what the picker's field holds.
 */
export function useTargetChoices(
  targetType: TargetType | undefined,
  search: string,
): TargetChoices {
  const names = useNames();
  const listed = useListedTargets(targetType);
  const canInterrupts = useCan('interrupt.read');
  const titles = useInterruptTitles(canInterrupts && targetType === 'interrupt', search);
  const of = (choices: Groups): TargetChoices => ({ choices, searched: false });
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
    case 'interrupt':
      return canInterrupts ? { choices: group('Interrupts', titles), searched: true } : of([]);
    default:
      return of([]);
  }
}
