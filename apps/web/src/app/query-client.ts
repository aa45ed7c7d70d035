import { isApiError } from '@interlock/api-client';
import { QueryCache, QueryClient } from '@tanstack/react-query';

/** The account and sign-in queries (`['auth', …]`): what a 401 re-reads. */
const AUTH = 'auth';

/**
 * Server state lives here (STYLE §14). A 4xx is an answer, not a hiccup: only network errors
 * and 5xx are retried. A 401 on any read means the sign-in ended: the account and session are
 * re-read, and the signed-in layout sends the person to the sign-in page; a 403
 * TWO_FACTOR_ENROLMENT_REQUIRED re-reads the session, and the layout shows the set-up.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isApiError(error) && error.status === 401 && query.queryKey[0] !== AUTH) {
          void client.invalidateQueries({ queryKey: [AUTH] });
        }
        // The organisation began to require two-factor sign-in: the session is read again, and
        // the signed-in layout shows the set-up (SPEC §8f).
        if (
          isApiError(error) &&
          error.code === 'TWO_FACTOR_ENROLMENT_REQUIRED' &&
          query.queryKey[0] !== AUTH
        ) {
          void client.invalidateQueries({ queryKey: [AUTH, 'session'] });
        }
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: true,
        retry: (failures, error) =>
          failures < 2 && (!isApiError(error) || error.status === 0 || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
  return client;
}

/** The app's one cache: the router's loaders start reads in it before pages render. */
export const queryClient = createQueryClient();
