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
