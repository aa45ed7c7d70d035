import {
  call,
  changePlan,
  createOrganisation,
  deleteSingleSignOn,
  type EscalationPolicyDto,
  getEscalationPolicy,
  getInterruptDeadlineSettings,
  getOrganisation,
  getSingleSignOn,
  getTeamEscalationPolicy,
  getTwoFactorRequirement,
  type Plan,
  putSingleSignOn,
  putSingleSignOnRequirement,
  putTwoFactorRequirement,
  type PutSsoConnectionDto,
  replaceEscalationPolicy,
  replaceTeamEscalationPolicy,
  type UpdateInterruptDeadlineSettingsDto,
  verifySingleSignOnDomain,
  updateInterruptDeadlineSettings,
} from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { meKey } from '@/shared/sign-in/me.queries';
import { signInSessionKey } from '@/shared/sign-in/sign-in-session.queries';
import { switchOrganisation } from '@/shared/sign-in/switch-organisation';

export const organisationKeys = {
  all: ['organisation'] as const,
  detail: () => [...organisationKeys.all, 'detail'] as const,
};

export function useOrganisation() {
  return useQuery({ queryKey: organisationKeys.detail(), queryFn: () => call(getOrganisation()) });
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: Plan) => call(changePlan({ body: { plan } })),
    onSuccess: async () => {
      // The plan shows in the header (the session and the account's organisations) and here.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organisationKeys.all }),
        queryClient.invalidateQueries({ queryKey: [signInSessionKey[0]] }),
      ]);
    },
  });
}

/**
 * Creates another organisation the signed-in person owns. The caller switches the tab to it
 * (`switchTo`) once it has navigated: switching remounts the signed-in pages, the caller included.
 */
export function useCreateOrganisation() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (name: string) => call(createOrganisation({ body: { name } })),
    onSuccess: (created) =>
      queryClient.setQueryData(meKey, { user: created.user, organisations: created.organisations }),
  });
  return {
    ...mutation,
    switchTo: (organisationId: string) => switchOrganisation(queryClient, organisationId),
  };
}

export const deadlineSettingsKey = [...organisationKeys.all, 'interrupt-deadlines'] as const;

/** The organisation's bounds on interrupt deadlines (Settings → Deadlines). */
export function useDeadlineSettings() {
  return useQuery({
    queryKey: deadlineSettingsKey,
    queryFn: () => call(getInterruptDeadlineSettings()),
  });
}

export function useUpdateDeadlineSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateInterruptDeadlineSettingsDto) =>
      call(updateInterruptDeadlineSettings({ body })),
    onSuccess: (saved) => queryClient.setQueryData(deadlineSettingsKey, saved),
  });
}

export const escalationPolicyKeys = {
  all: [...organisationKeys.all, 'escalation-policy'] as const,
  /** The organisation's policy (`null`) or a team's. */
  of: (teamId: string | null) => [...escalationPolicyKeys.all, teamId ?? 'organisation'] as const,
};

/** An escalation policy (Settings → Escalation): the organisation's (`teamId` null) or a team's. */
export function useEscalationPolicy(teamId: string | null) {
  return useQuery({
    queryKey: escalationPolicyKeys.of(teamId),
    queryFn: () =>
      call(
        teamId === null ? getEscalationPolicy() : getTeamEscalationPolicy({ path: { id: teamId } }),
      ),
  });
}

export function useReplaceEscalationPolicy(teamId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EscalationPolicyDto) =>
      call(
        teamId === null
          ? replaceEscalationPolicy({ body })
          : replaceTeamEscalationPolicy({ path: { id: teamId }, body }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(escalationPolicyKeys.of(teamId), saved),
  });
}

export const ssoSettingsKey = [...organisationKeys.all, 'single-sign-on'] as const;

/** The organisation's OpenID provider (never its secret) and the redirect URI to register there. */
export function useSsoSettings() {
  return useQuery({ queryKey: ssoSettingsKey, queryFn: () => call(getSingleSignOn()) });
}

export function usePutSsoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PutSsoConnectionDto) => call(putSingleSignOn({ body })),
    onSuccess: (saved) => queryClient.setQueryData(ssoSettingsKey, saved),
  });
}

/** Turns "require single sign-on" on or off (SPEC §8f). */
export function usePutSsoRequirement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requireSso: boolean) => call(putSingleSignOnRequirement({ body: { requireSso } })),
    onSuccess: (saved) => queryClient.setQueryData(ssoSettingsKey, saved),
  });
}

/** Looks a domain's TXT record up now; found with this organisation's token, the domain is proven (SPEC §8f). */
export function useVerifySsoDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => call(verifySingleSignOnDomain({ body: { domain } })),
    onSuccess: (saved) => queryClient.setQueryData(ssoSettingsKey, saved),
  });
}

export function useDeleteSsoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(deleteSingleSignOn()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ssoSettingsKey }),
  });
}

export const twoFactorRequirementKey = [...organisationKeys.all, 'two-factor-requirement'] as const;

/** Whether the organisation requires two-factor sign-in of its members (SPEC §8f). */
export function useTwoFactorRequirement() {
  return useQuery({
    queryKey: twoFactorRequirementKey,
    queryFn: () => call(getTwoFactorRequirement()),
  });
}

/** Turns "require two-factor sign-in for members" on or off (Owners only: the API says so otherwise). */
export function usePutTwoFactorRequirement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requireTwoFactor: boolean) =>
      call(putTwoFactorRequirement({ body: { requireTwoFactor } })),
    onSuccess: (saved) => queryClient.setQueryData(twoFactorRequirementKey, saved),
  });
}
