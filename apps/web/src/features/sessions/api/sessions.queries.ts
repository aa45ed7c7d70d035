import {
  call,
  disconnectSession,
  listSessions,
  retrieveSession,
  type ListSessionsData,
} from '@interlock/api-client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useInvalidatingMutation } from '@/shared/utils/invalidating-mutation';
import { callById } from '@/shared/utils/call-by-id';

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
  return useInvalidatingMutation(callById(disconnectSession), [sessionKeys.all]);
}
