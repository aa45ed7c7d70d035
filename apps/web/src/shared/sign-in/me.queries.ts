import {
  call,
  getMe,
  isApiError,
  type AccountOrganisation,
  type AccountResponse,
} from '@interlock/api-client';
import { queryOptions, useQuery } from '@tanstack/react-query';

export type Account = AccountResponse;
export type MyOrganisation = AccountOrganisation;

export const meKey = ['auth', 'me'] as const;

/** The signed-in person and their organisations (role in each); `null` when nobody is signed in. */
export const meQuery = queryOptions({
  queryKey: meKey,
  queryFn: async (): Promise<Account | null> => {
    try {
      return await call(getMe());
    } catch (error) {
      if (isApiError(error) && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}
