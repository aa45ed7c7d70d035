import { call, deleteClassificationRule, listClassificationRules, updateClassificationRule, type ClassificationRuleMode } from '@interlock/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export const classificationKeys = { rules: ['classification', 'rules'] as const };

export function useClassificationRules() {
  return useQuery({ queryKey: classificationKeys.rules, queryFn: () => call(listClassificationRules()) });
}

export function useSetRuleMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mode }: { id: string; mode: ClassificationRuleMode }) => call(updateClassificationRule({ path: { id }, body: { mode } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: classificationKeys.rules }),
  });
}

export function useDeleteRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(deleteClassificationRule({ path: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: classificationKeys.rules }),
  });
}
