import type { QueryClient } from '@tanstack/react-query';

/** What of the router this needs: whether its first navigation (loaders, lazy code) is done. */
interface StartingRouter {
  state: { initialized: boolean };
  subscribe(listener: (state: { initialized: boolean }) => void): () => void;
}

/**
 * Resolves when the page's first reads are in: the router has run its first navigation's loaders
 * (which start the reads the page needs, or take the early reads' answers) and no read is in
 * flight, or when `limitMs` has passed, whichever is first.
 *
 * The first render waits for it, so the page is drawn once with its data. Rendered at once, the
 * signed-in frame and the inbox were drawn while their reads were pending and again as each
 * answer came (the account, the session, the list, the counts), the main thread's largest cost
 * on a cold load after the code itself (tools:bench-web). The limit keeps a slow read from
 * holding the page blank: past it, the page renders its loaders as before.
 */
export function whenFirstReadsSettle(
  router: StartingRouter,
  queryClient: QueryClient,
  limitMs: number,
): Promise<void> {
  return new Promise((resolve) => {
    const stops: (() => void)[] = [];
    const done = () => {
      for (const stop of stops.splice(0)) stop();
      resolve();
    };
    const timer = window.setTimeout(done, limitMs);
    stops.push(() => window.clearTimeout(timer));
    const readsSettled = () => {
      if (queryClient.isFetching() === 0) return done();
      stops.push(
        queryClient.getQueryCache().subscribe(() => {
          if (queryClient.isFetching() === 0) done();
        }),
      );
    };
    if (router.state.initialized) return readsSettled();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      readsSettled();
    });
    stops.push(unsubscribe);
  });
}
