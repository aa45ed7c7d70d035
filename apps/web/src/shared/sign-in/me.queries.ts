import { call, getMe, type AccountOrganisation, type AccountResponse } from '@interlock/api-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { nullWhenSignedOut } from './signed-out';

export type Account = AccountResponse;
export type MyOrganisation = AccountOrganisation;

export const meKey = ['auth', 'me'] as const;

/** The signed-in person and their organisations (role in each); `null` when nobody is signed in. */
export const meQuery = queryOptions({
  queryKey: meKey,
  queryFn: (): Promise<Account | null> => nullWhenSignedOut(() => call(getMe())),
  staleTime: 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}
