import { Button, Group } from '@mantine/core';
import { useIntersection } from '@mantine/hooks';
import { useEffect } from 'react';

/** The part of an infinite query (TanStack's useInfiniteQuery) a paged list needs. */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The end of a paged list: the next page loads by itself as this comes within `rootMargin` of the
 * screen (`auto`), and a "Load more" button does the same by hand (keyboard, or no scrolling).
 */
export function LoadMore({
  query,
  auto = true,
  rootMargin = '400px',
}: {
  query: PagedQuery;
  auto?: boolean;
  rootMargin?: string;
}) {
  const sentinel = useIntersection({ rootMargin });
  const near = sentinel.entry?.isIntersecting ?? false;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (auto && near && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [auto, near, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return (
    <>
      {auto && <div ref={sentinel.ref} />}
      {hasNextPage && (
        <Group justify="center" p="sm">
          <Button
            variant="subtle"
            loading={isFetchingNextPage}
            onClick={() => void fetchNextPage()}
          >
            Load more
          </Button>
        </Group>
      )}
    </>
  );
}
