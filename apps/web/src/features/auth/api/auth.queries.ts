import {
  acceptInvitation,
  call,
  completeSignUp,
  finishSingleSignOn,
  getInvitation,
  joinInvitation,
  signIn,
  signOut,
  signUp,
  startSingleSignOn,
  type AcceptInvitationDto,
  type SignInDto,
  type SignUpDto,
} from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { setActiveOrganisation } from '@/shared/sign-in/active-organisation';
import { meKey } from '@/shared/sign-in/me.queries';
import { signInSessionKey } from '@/shared/sign-in/sign-in-session.queries';

const AUTH = meKey[0];

/**
 * After signing in (or joining an organisation) nothing cached belongs to the new person or
 * organisation: start again from the account and the session. `organisationId` is the
 * organisation to act for next, when the answer names one (sign-up, accepting an invitation).
 */
async function resetAfter(queryClient: QueryClient, organisationId?: string): Promise<void> {
  await queryClient.cancelQueries();
  if (organisationId !== undefined) setActiveOrganisation(organisationId);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== AUTH });
  queryClient.removeQueries({ queryKey: signInSessionKey });
  await queryClient.refetchQueries({ queryKey: meKey });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SignInDto) => call(signIn({ body })),
    onSuccess: () => resetAfter(queryClient),
  });
}

/**
 * Signing up: signed in at once (the answer names the new organisation), or — where the server
 * confirms sign-ups by email (SPEC §8f) — `{email}`: a link was emailed that finishes it.
 */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SignUpDto) => call(signUp({ body })),
    onSuccess: async (answer) => {
      if ('organisation' in answer) await resetAfter(queryClient, answer.organisation.id);
    },
  });
}

/** Finishing a sign-up with its emailed link's token: the account, its organisation, signed in. */
export function useCompleteSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(completeSignUp({ body: { token } })),
    onSuccess: (created) => resetAfter(queryClient, created.organisation.id),
  });
}

/** What an invitation offers (organisation, role, the address it was sent to); `null` once it is no longer valid. */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation-preview', token],
    queryFn: async () => {
      try {
        return await call(getInvitation({ path: { token } }));
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/** Signing up from an invitation link: a new account, in the invitation's organisation. */
export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AcceptInvitationDto) => call(acceptInvitation({ path: { token }, body })),
    onSuccess: (joined) => resetAfter(queryClient, joined.organisation.id),
  });
}

/** A signed-in person accepting an invitation: its organisation joins their account, and the tab acts for it. */
export function useJoinInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** `emailProof`: the invitation email's fragment, '' when the link came without it. */
    mutationFn: (emailProof: string) =>
      call(
        joinInvitation({ path: { token }, ...(emailProof === '' ? {} : { body: { emailProof } }) }),
      ),
    onSuccess: (joined) => resetAfter(queryClient, joined.organisation.id),
  });
}

/** Single sign-on's first step: the provider's sign-in page for this address's organisation. */
export function useStartSingleSignOn() {
  return useMutation({
    mutationFn: (email: string) => call(startSingleSignOn({ body: { email } })),
  });
}

/**
 * Single sign-on's last step, on the page the provider sent the browser back to: the query
 * string as received. Signed in, the tab acts for that organisation (the only one such a
 * session may act for); `linking` from Settings → Security, the password session stays and the
 * tab goes on acting for the organisation it did.
 */
export function useFinishSingleSignOn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ callbackQuery }: { callbackQuery: string; linking: boolean }) =>
      call(finishSingleSignOn({ body: { callbackQuery } })),
    onSuccess: (joined, { linking }) =>
      resetAfter(queryClient, linking ? undefined : joined.organisation.id),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(signOut()),
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== AUTH });
      queryClient.removeQueries({ queryKey: signInSessionKey });
      queryClient.setQueryData(meKey, null);
    },
  });
}
