import { call, changePlan, getOrganisation, type Plan } from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sessionKey } from '../../../shared/session/session.queries';

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
      // The plan shows in the header (the session) and here.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organisationKeys.all }),
        queryClient.invalidateQueries({ queryKey: sessionKey }),
      ]);
    },
  });
}
