import {
  call,
  disconnectSession,
  listSessions,
  retrieveSession,
  type ListSessionsData,
} from '@interlock/api-client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type SessionFilters = Omit<NonNullable<ListSessionsData['query']>, 'cursor' | 'limit'>;

export const sessionKeys = {
  all: ['sessions'] as const,
  lists: () => [...sessionKeys.all, 'list'] as const,
  list: (filters: SessionFilters) => [...sessionKeys.lists(), filters] as const,
  detail: (id: string) => [...sessionKeys.all, 'detail', id] as const,
};

export function useSessionList(filters: SessionFilters) {
  return useInfiniteQuery({
    queryKey: sessionKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      call(
        listSessions({ query: { ...filters, limit: 50, cursor: pageParam ?? undefined }, signal }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useSessionRecord(id: string) {
  return useQuery({
    queryKey: sessionKeys.detail(id),
    queryFn: ({ signal }) => call(retrieveSession({ path: { id }, signal })),
  });
}

export function useDisconnectSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(disconnectSession({ path: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
