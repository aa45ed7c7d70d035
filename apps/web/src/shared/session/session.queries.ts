import { call, getSession, isApiError, type CurrentSessionResponse, type Permission } from '@interlock/api-client';
import { queryOptions, useQuery } from '@tanstack/react-query';

export type CurrentSession = CurrentSessionResponse;

export const sessionKey = ['auth', 'session'] as const;

/** The signed-in member, organisation and permissions; `null` when nobody is signed in. */
export const sessionQuery = queryOptions({
  queryKey: sessionKey,
  queryFn: async (): Promise<CurrentSession | null> => {
    try {
      return await call(getSession());
    } catch (error) {
      if (isApiError(error) && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/** The signed-in member's session; only for components rendered inside the signed-in layout. */
export function useSignedIn(): CurrentSession {
  const { data } = useSession();
  if (data === undefined || data === null) throw new Error('useSignedIn outside the signed-in layout');
  return data;
}

/** Whether the signed-in member holds a permission (the UI hides what they may not do; the API refuses it anyway). */
export function useCan(permission: Permission): boolean {
  const { data } = useSession();
  return data?.permissions.includes(permission) ?? false;
}
