import {
  call,
  changePassword,
  endMyOtherSignInSessions,
  endMySignInSession,
  listMySignInSessions,
  resendEmailVerification,
  type ChangePasswordDto,
} from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

const sessionsKey = ['me', 'sign-in-sessions'] as const;

/** Changes the signed-in person's password; their other sign-in sessions end, this one stays. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordDto) => call(changePassword({ body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** Where the person is signed in. */
export function useMySignInSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => call(listMySignInSessions()),
  });
}

export function useEndSignInSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(endMySignInSession({ path: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useEndOtherSignInSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(endMyOtherSignInSessions()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** Emails the signed-in person a new verification link (SPEC §8f). */
export function useResendEmailVerification() {
  return useMutation({ mutationFn: () => call(resendEmailVerification()) });
}
