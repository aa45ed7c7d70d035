import { call, listAuditLog, type ListAuditLogData } from '@interlock/api-client';
import { useInfiniteQuery } from '@tanstack/react-query';

export type AuditFilters = Omit<NonNullable<ListAuditLogData['query']>, 'cursor' | 'limit'>;

export const auditKeys = {
  all: ['audit-log'] as const,
  list: (filters: AuditFilters) => [...auditKeys.all, 'list', filters] as const,
};

/** The audit log, newest first, a page at a time: a walk is bound to its filters (the cursor is). */
export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      call(
        listAuditLog({ query: { ...filters, limit: 100, cursor: pageParam ?? undefined }, signal }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // A walk sees the log as it was at its first page: refetching restarts it.
    staleTime: 30_000,
  });
}

/** The CSV export of the same filter (the 5,000 most recent matching entries), as a download link. */
export function exportUrl(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const query = params.toString();
  return `/api/audit-log/export${query === '' ? '' : `?${query}`}`;
}
