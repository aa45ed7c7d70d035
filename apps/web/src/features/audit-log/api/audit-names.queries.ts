import {
  call,
  listApiKeys,
  listMembers,
  listRoles,
  listTeams,
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

/** What an entry's target can be picked from, by name, for the chosen target type (empty: use the id). */
export function useTargetChoices(targetType: TargetType | undefined): Groups {
  const names = useNames();
  switch (targetType) {
    case 'user':
      return group('Members', names.members);
    case 'api_key':
      return group('API keys', names.keys);
    case 'team':
      return group('Teams', names.teams);
    case 'role':
      return group('Roles', names.roles);
    default:
      return [];
  }
}
