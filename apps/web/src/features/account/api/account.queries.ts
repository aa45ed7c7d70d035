import {
  call,
  changePassword,
  confirmTwoFactorSetup,
  disableTwoFactor,
  getMyTwoFactor,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  type TwoFactorDisableDto,
  endMyOtherSignInSessions,
  endMySignInSession,
  listMySignInSessions,
  resendEmailVerification,
  updateMyProfile,
  changeMyEmail,
  listMySingleSignOn,
  startSingleSignOn,
  type ChangeEmailDto,
  type ChangePasswordDto,
} from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callById } from '@/shared/utils/call-by-id';

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
    mutationFn: callById(endMySignInSession),
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

/** Renames the signed-in person; every view that shows their name reads it again. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(updateMyProfile({ body: { name } })),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Asks to move the account to a new address: a link goes there; nothing changes until it is opened. */
export function useChangeEmail() {
  return useMutation({ mutationFn: (body: ChangeEmailDto) => call(changeMyEmail({ body })) });
}

/** Emails the signed-in person a new verification link (SPEC §8f). */
export function useResendEmailVerification() {
  return useMutation({ mutationFn: () => call(resendEmailVerification()) });
}

const twoFactorKey = ['me', 'two-factor'] as const;

/** Whether two-factor sign-in is on for the signed-in person (SPEC §8f). */
export function useMyTwoFactor() {
  return useQuery({ queryKey: twoFactorKey, queryFn: () => call(getMyTwoFactor()) });
}

/** A new authenticator key (the password opens it); it works once a code confirms it. */
export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: (password: string) => call(startTwoFactorSetup({ body: { password } })),
  });
}

/** Turns two-factor on with a code from the app; answers the recovery codes, shown once. */
export function useConfirmTwoFactorSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(confirmTwoFactorSetup({ body: { code } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TwoFactorDisableDto) => call(disableTwoFactor({ body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

/** A new set of recovery codes; the earlier ones stop working. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => call(regenerateRecoveryCodes({ body: { password } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

/** The person's organisations whose single sign-on signs in their address, linked or not (SPEC §8f). */
export function useMySingleSignOn() {
  return useQuery({
    queryKey: ['me', 'single-sign-on'] as const,
    queryFn: () => call(listMySingleSignOn()),
  });
}

/**
 * Starts the single sign-on that links the account, from this browser's password session: the
 * provider's page to go to (the callback keeps that session, SPEC §8f).
 */
export function useLinkSingleSignOn() {
  return useMutation({
    mutationFn: (email: string) => call(startSingleSignOn({ body: { email } })),
  });
}
