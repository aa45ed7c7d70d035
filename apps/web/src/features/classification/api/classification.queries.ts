import {
  applyClassificationSuggestion,
  call,
  createClassificationRule,
  deleteClassifier,
  getClassifier,
  putClassifier,
  rotateClassifierSecret,
  testClassifier,
  dismissClassificationSuggestion,
  restoreClassificationSuggestion,
  deleteClassificationRule,
  dryRunClassification,
  getClassificationRule,
  getClassificationRuleStats,
  listApiKeys,
  listClassificationRules,
  listClassificationSuggestions,
  listMembers,
  listSessions,
  listTeams,
  updateClassificationRule,
  type ClassificationRuleMode,
  type CreateClassificationRuleDto,
  type PutClassifierDto,
  type TestClassifierDto,
} from '@interlock/api-client';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useInvalidatingMutation } from '@/shared/utils/invalidating-mutation';
import { callById } from '@/shared/utils/call-by-id';

export const classificationKeys = {
  all: ['classification'] as const,
  rules: ['classification', 'rules'] as const,
  rule: (id: string) => ['classification', 'rule', id] as const,
  stats: (id: string) => ['classification', 'stats', id] as const,
  preview: (draft: unknown) => ['classification', 'preview', draft] as const,
  suggestions: ['classification', 'suggestions'] as const,
  classifier: ['classification', 'classifier'] as const,
};

/** How many of the latest interrupts the editor's preview runs a draft on. */
export const PREVIEW_INTERRUPTS = 50;

export function useClassificationRules() {
  return useQuery({
    queryKey: classificationKeys.rules,
    queryFn: () => call(listClassificationRules()),
  });
}

export function useClassificationRule(id: string | undefined) {
  return useQuery({
    queryKey: classificationKeys.rule(id ?? ''),
    queryFn: () => call(getClassificationRule({ path: { id: id ?? '' } })),
    enabled: id !== undefined,
  });
}

export function useRuleStats(id: string | undefined) {
  return useQuery({
    queryKey: classificationKeys.stats(id ?? ''),
    queryFn: () => call(getClassificationRuleStats({ path: { id: id ?? '' } })),
    enabled: id !== undefined,
  });
}

/** The organisation's API keys, to name the keys a rule matches. */
export function useKeyChoices() {
  return useQuery({ queryKey: ['classification', 'keys'], queryFn: () => call(listApiKeys()) });
}

/** The organisation's members and teams, for a route's assignee (empty without member.read). */
export function useAssigneeChoices() {
  const members = useQuery({
    queryKey: ['classification', 'members'],
    queryFn: () => call(listMembers()),
    retry: false,
  });
  const teams = useQuery({
    queryKey: ['classification', 'teams'],
    queryFn: () => call(listTeams()),
    retry: false,
  });
  return { members: members.data?.members ?? [], teams: teams.data?.teams ?? [] };
}

/** The latest sessions, to name the sessions a rule matches. */
export function useSessionChoices() {
  return useQuery({
    queryKey: ['classification', 'sessions'],
    queryFn: () => call(listSessions({ query: { limit: 100 } })),
    retry: false,
  });
}

/** The draft rule run on the latest interrupts (nothing is written); null while the draft is incomplete. */
export function useRulePreview(draft: CreateClassificationRuleDto | null) {
  return useQuery({
    queryKey: classificationKeys.preview(draft),
    queryFn: () =>
      call(
        dryRunClassification({
          body: {
            lastInterrupts: PREVIEW_INTERRUPTS,
            rules: [{ ...(draft as CreateClassificationRuleDto), mode: 'enforce' }],
          },
        }),
      ),
    enabled: draft !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useSaveRule(id: string | undefined) {
  return useInvalidatingMutation(
    (body: CreateClassificationRuleDto) =>
      id === undefined
        ? call(createClassificationRule({ body }))
        : call(updateClassificationRule({ path: { id }, body })),
    [classificationKeys.all],
  );
}

export function useSetRuleMode() {
  return useInvalidatingMutation(
    ({ id, mode }: { id: string; mode: ClassificationRuleMode }) =>
      call(updateClassificationRule({ path: { id }, body: { mode } })),
    [classificationKeys.all],
  );
}

export function useDeleteRule() {
  return useInvalidatingMutation(callById(deleteClassificationRule), [classificationKeys.all]);
}

/** Rules argus suggests from people's approvals (SPEC §8d). */
export function useSuggestions() {
  return useQuery({
    queryKey: classificationKeys.suggestions,
    queryFn: () => call(listClassificationSuggestions()),
  });
}

/** Applies a suggestion in the mode the person picked: the rule is made, the suggestion gone. */
export function useApplySuggestion() {
  return useInvalidatingMutation(
    ({ id, mode }: { id: string; mode: 'shadow' | 'enforce' }) =>
      call(applyClassificationSuggestion({ path: { id }, body: { mode } })),
    [classificationKeys.all],
  );
}

/** Dismisses a suggestion: argus does not make it again. */
export function useDismissSuggestion() {
  return useInvalidatingMutation(callById(dismissClassificationSuggestion), [
    classificationKeys.suggestions,
  ]);
}

/** Undoes a dismissal: the suggestion is listed again while its evidence holds. */
export function useRestoreSuggestion() {
  return useInvalidatingMutation(callById(restoreClassificationSuggestion), [
    classificationKeys.suggestions,
  ]);
}

/** The organisation's external classifier (null: none is set up). */
export function useClassifier() {
  return useQuery({
    queryKey: classificationKeys.classifier,
    queryFn: () => call(getClassifier()),
  });
}

/** Sets up or changes the classifier; the answer that sets it up carries its secret, once. */
export function useSaveClassifier() {
  return useInvalidatingMutation(
    (body: PutClassifierDto) => call(putClassifier({ body })),
    [classificationKeys.classifier],
  );
}

export function useRotateClassifierSecret() {
  return useInvalidatingMutation(
    () => call(rotateClassifierSecret()),
    [classificationKeys.classifier],
  );
}

export function useDeleteClassifier() {
  return useInvalidatingMutation(() => call(deleteClassifier()), [classificationKeys.classifier]);
}

/** Asks the saved classifier about a sample action; writes nothing. */
export function useTestClassifier() {
  return useMutation({ mutationFn: (body: TestClassifierDto) => call(testClassifier({ body })) });
}
