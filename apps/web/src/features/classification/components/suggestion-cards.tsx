import type { ClassificationSuggestionResponse } from '@interlock/api-client';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { confirmAction } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import {
  useApplySuggestion,
  useDismissSuggestion,
  useSuggestions,
} from '../api/classification.queries';
import { describeMatch } from './describe-match';

/** The suggested rule's argument conditions in words, or that any arguments would do. */
function conditionsOf(suggestion: ClassificationSuggestionResponse): string {
  const args = suggestion.rule.match.args ?? [];
  return args.length === 0
    ? 'with any arguments'
    : `when ${describeMatch({ args }).replaceAll(' · ', ' and ')}`;
}

function SuggestionCard({
  suggestion,
  canManage,
}: {
  suggestion: ClassificationSuggestionResponse;
  canManage: boolean;
}) {
  const apply = useApplySuggestion();
  const dismiss = useDismissSuggestion();
  const navigate = useNavigate();
  const make = (mode: 'shadow' | 'enforce') =>
    apply.mutate(
      { id: suggestion.id, mode },
      { onSuccess: (rule) => navigate(`/settings/classification/${rule.id}`) },
    );
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
          People approved <strong>{suggestion.actionName}</strong> from key{' '}
          <strong>{suggestion.keyName}</strong> {suggestion.approvals} times in the last 30 days and
          rejected it never (the latest:{' '}
          <Anchor component={Link} to={`/interrupts/${suggestion.latestInterruptId}`} size="sm">
            this interrupt
          </Anchor>
          ).
        </Text>
        <Text size="sm" c="dimmed">
          Rule: approve {suggestion.actionName} from {suggestion.keyName} {conditionsOf(suggestion)}
          , after the organisation&apos;s own rules.
        </Text>
        <FormError error={apply.error ?? dismiss.error} />
        {canManage && (
          <Group gap="xs">
            <Button
              size="xs"
              loading={apply.isPending && apply.variables?.mode === 'enforce'}
              disabled={apply.isPending}
              onClick={() => make('enforce')}
              aria-label={`Create rule: approve ${label}`}
            >
              Create rule
            </Button>
            <Button
              size="xs"
              variant="light"
              loading={apply.isPending && apply.variables?.mode === 'shadow'}
              disabled={apply.isPending}
              onClick={() => make('shadow')}
              aria-label={`Try in shadow: approve ${label}`}
            >
              Try in shadow
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              onClick={() =>
                confirmAction({
                  title: `Dismiss the suggestion ${suggestion.rule.name}?`,
                  body: 'Argus will not suggest this rule again for this key, action and arguments. Nothing else changes.',
                  confirmLabel: 'Dismiss suggestion',
                  danger: false,
                  onConfirm: () => dismiss.mutateAsync(suggestion.id),
                })
              }
              aria-label={`Dismiss: approve ${label}`}
            >
              Dismiss
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/**
 * Suggestions (SPEC §8d): rules argus learned from people's approvals. Nothing is enforced until
 * a member with classification.manage creates the rule (enforced, or in shadow first).
 */
export function SuggestionCards({ canManage }: { canManage: boolean }) {
  const suggestions = useSuggestions();
  if (suggestions.error) return <FormError error={suggestions.error} />;
  const list = suggestions.data?.suggestions ?? [];
  if (list.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label="Suggested rules">
      <Title order={3} size="h5">
        Suggested rules
      </Title>
      <Text size="sm" c="dimmed">
        People keep approving these actions. A rule would answer them at once; nothing changes until
        someone creates it.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {list.map((s) => (
          <SuggestionCard key={s.id} suggestion={s} canManage={canManage} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
