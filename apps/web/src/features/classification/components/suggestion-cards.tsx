import type { ClassificationSuggestionResponse } from '@interlock/api-client';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmButton } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import { CreateRuleButtons, RuleSuggestionEvidence } from '@/shared/components/rule-suggestion';
import { suggestedConditions } from '@/shared/utils/suggested-conditions';
import {
  useApplySuggestion,
  useDismissSuggestion,
  useRestoreSuggestion,
  useSuggestions,
} from '../api/classification.queries';

function SuggestionCard({
  suggestion,
  canManage,
  onDismissed,
}: {
  suggestion: ClassificationSuggestionResponse;
  canManage: boolean;
  /** Called once the dismissal is recorded (the card is gone by then: see make()). */
  onDismissed: (suggestion: ClassificationSuggestionResponse) => void;
}) {
  const apply = useApplySuggestion();
  const dismiss = useDismissSuggestion();
  const navigate = useNavigate();
  // The created rule removes this card from the refreshed list before a callback given to
  // mutate() would run (TanStack Query drops those once the component unmounts): the promise
  // still resolves, so the rule's page opens either way. A refusal shows through apply.error.
  const make = (mode: 'shadow' | 'enforce') => {
    void apply.mutateAsync({ id: suggestion.id, mode }).then(
      (rule) => navigate(`/settings/classification/${rule.id}`),
      () => undefined,
    );
  };
  const label = `${suggestion.actionName} from ${suggestion.keyName}`;
  return (
    <Card
      component="article"
      withBorder
      padding="md"
      aria-label={`Suggestion: ${suggestion.rule.name}`}
    >
      <Stack gap="xs">
        <Text fw={600}>{suggestion.rule.name}</Text>
        <Text size="sm">
          <RuleSuggestionEvidence suggestion={suggestion} /> (the latest:{' '}
          <Anchor component={Link} to={`/interrupts/${suggestion.latestInterruptId}`} size="sm">
            this interrupt
          </Anchor>
          ).
        </Text>
        <Text size="sm" c="dimmed">
          Rule: approve {suggestion.actionName} from {suggestion.keyName}{' '}
          {suggestedConditions(suggestion)}, after the organisation&apos;s own rules.
        </Text>
        <FormError error={apply.error ?? dismiss.error} />
        {canManage && (
          <Group gap="xs">
            <CreateRuleButtons
              suggestion={suggestion}
              creating={apply.isPending ? apply.variables?.mode : undefined}
              onCreate={make}
            />
            <ConfirmButton
              size="xs"
              variant="subtle"
              color="gray"
              confirm={{
                title: `Dismiss the suggestion ${suggestion.rule.name}?`,
                body: 'Argus will not suggest this rule again for this key, action and arguments. Nothing else changes.',
                confirmLabel: 'Dismiss suggestion',
                danger: false,
                onConfirm: () =>
                  dismiss.mutateAsync(suggestion.id).then(() => onDismissed(suggestion)),
              }}
              aria-label={`Dismiss: approve ${label}`}
            >
              Dismiss
            </ConfirmButton>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** The last suggestion dismissed here, with Undo (SPEC §8d: the dismissal is forgotten). */
function DismissedNotice({
  suggestion,
  onDone,
}: {
  suggestion: ClassificationSuggestionResponse;
  onDone: () => void;
}) {
  const restore = useRestoreSuggestion();
  return (
    <Alert role="status" variant="light" color="gray" aria-label="Dismissed suggestion">
      <Stack gap="xs">
        <Group gap="sm" justify="space-between">
          <Text size="sm">
            Dismissed <strong>{suggestion.rule.name}</strong>: argus will not suggest it again.
          </Text>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              loading={restore.isPending}
              onClick={() => {
                void restore.mutateAsync(suggestion.id).then(onDone, () => undefined);
              }}
              aria-label={`Undo dismissing ${suggestion.rule.name}`}
            >
              Undo
            </Button>
            <Button size="xs" variant="subtle" color="gray" onClick={onDone}>
              Close
            </Button>
          </Group>
        </Group>
        <FormError error={restore.error} />
      </Stack>
    </Alert>
  );
}

/**
 * Suggestions (SPEC §8d): rules argus learned from people's approvals. Nothing is enforced until
 * a member with classification.manage creates the rule (enforced, or in shadow first); a
 * dismissal made here can be undone until the page is left.
 */
export function SuggestionCards({ canManage }: { canManage: boolean }) {
  const suggestions = useSuggestions();
  const [dismissed, setDismissed] = useState<ClassificationSuggestionResponse | null>(null);
  if (suggestions.error) return <FormError error={suggestions.error} />;
  const list = suggestions.data?.suggestions ?? [];
  if (list.length === 0 && dismissed === null) return null;
  return (
    <Stack gap="sm" component="section" aria-label="Suggested rules">
      <Title order={3} size="h5">
        Suggested rules
      </Title>
      {dismissed !== null && (
        <DismissedNotice
          key={dismissed.id}
          suggestion={dismissed}
          onDone={() => setDismissed(null)}
        />
      )}
      {list.length > 0 && (
        <>
          <Text size="sm" c="dimmed">
            People keep approving these actions. A rule would answer them at once; nothing changes
            until someone creates it.
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {list.map((s) => (
              <SuggestionCard
                key={s.id}
                suggestion={s}
                canManage={canManage}
                onDismissed={setDismissed}
              />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
