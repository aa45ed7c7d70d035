import { call, listMembers, listRoles, listTeams } from '@interlock/api-client';
import { useQuery } from '@tanstack/react-query';

/**
 * The organisation's members, roles and teams: read by several features (members, roles, teams,
 * assigning an interrupt), so their queries live below the features. Each feature's mutations
 * invalidate these keys.
 */
export const directoryKeys = {
  members: ['members'] as const,
  roles: ['roles'] as const,
  teams: ['teams'] as const,
};

export function useMembers(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: directoryKeys.members,
    queryFn: async () => (await call(listMembers())).members,
    enabled: options.enabled,
  });
}

export function useRoles(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: directoryKeys.roles,
    queryFn: async () => (await call(listRoles())).roles,
    enabled: options.enabled,
  });
}

export function useTeams(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: directoryKeys.teams,
    queryFn: async () => (await call(listTeams())).teams,
    enabled: options.enabled,
  });
}

/**
 * Members and teams as a select's groups of options, valued `member:<id>` / `team:<id>` (assigning
 * an interrupt, an escalation step's assignee); a list not loaded adds no group.
 */
export function assigneeOptionGroups(
  members: { id: string; name: string }[] | undefined,
  teams: { id: string; name: string }[] | undefined,
): { group: string; items: { value: string; label: string }[] }[] {
  return [
    ...(members
      ? [
          {
            group: 'Members',
            items: members.map((m) => ({ value: `member:${m.id}`, label: m.name })),
          },
        ]
      : []),
    ...(teams
      ? [
          {
            group: 'Teams',
            items: teams.map((t) => ({ value: `team:${t.id}`, label: `Team ${t.name}` })),
          },
        ]
      : []),
  ];
}
