import { acceptInvitation, call, signIn, signOut, signUp, type AcceptInvitationDto, type SignInDto, type SignUpDto } from '@interlock/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sessionKey } from '../../../shared/session/session.queries';

/** After signing in (or out) nothing cached belongs to the new person: start again from the session. */
function useResetAfter() {
  const queryClient = useQueryClient();
  return async () => {
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
    await queryClient.refetchQueries({ queryKey: sessionKey });
  };
}

export function useSignIn() {
  const reset = useResetAfter();
  return useMutation({
    mutationFn: (body: SignInDto) => call(signIn({ body })),
    onSuccess: reset,
  });
}

export function useSignUp() {
  const reset = useResetAfter();
  return useMutation({
    mutationFn: (body: SignUpDto) => call(signUp({ body })),
    onSuccess: reset,
  });
}

export function useAcceptInvitation(token: string) {
  const reset = useResetAfter();
  return useMutation({
    mutationFn: (body: AcceptInvitationDto) => call(acceptInvitation({ path: { token }, body })),
    onSuccess: reset,
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(signOut()),
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
      queryClient.setQueryData(sessionKey, null);
    },
  });
}
