import {
  call,
  getSignInSession,
  type SignInSessionResponse,
  type Permission,
} from '@interlock/api-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { nullWhenSignedOut } from './signed-out';

export type SignInSession = SignInSessionResponse;

export const signInSessionKey = ['auth', 'session'] as const;

/** The signed-in member, organisation and permissions; `null` when nobody is signed in. */
export const signInSessionQuery = queryOptions({
  queryKey: signInSessionKey,
  queryFn: (): Promise<SignInSession | null> => nullWhenSignedOut(() => call(getSignInSession())),
  staleTime: 60_000,
});

export function useSignInSession() {
  return useQuery(signInSessionQuery);
}

/** The signed-in member's session; only for components rendered inside the signed-in layout. */
export function useSignedIn(): SignInSession {
  const { data } = useSignInSession();
  if (data === undefined || data === null)
    throw new Error('useSignedIn outside the signed-in layout');
  return data;
}

/** Whether the signed-in member holds a permission (the UI hides what they may not do; the API refuses it anyway). */
export function useCan(permission: Permission): boolean {
  const { data } = useSignInSession();
  return data?.permissions.includes(permission) ?? false;
}
