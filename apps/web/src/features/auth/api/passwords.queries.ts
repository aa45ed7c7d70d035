import { call, confirmPasswordReset, requestPasswordReset } from '@interlock/api-client';
import { useMutation } from '@tanstack/react-query';

/** Asks for a reset link; the service answers alike whether or not the address has an account. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) => call(requestPasswordReset({ body: { email } })),
  });
}

/** Sets a new password with a reset link's token (every sign-in session of the account ends). */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => call(confirmPasswordReset({ body })),
  });
}
