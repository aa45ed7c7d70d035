import type { ActionRequestResponse, InterruptResponse } from '@interlock/api-client';
import { Alert, Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { CreateRuleButtons, RuleSuggestionEvidence } from '@/shared/components/rule-suggestion';
import { suggestedConditions } from '@/shared/utils/suggested-conditions';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { whenSettled } from '@/shared/utils/when-settled';
import { useApplyRuleSuggestion, useRuleSuggestions } from '../api/interrupts.queries';
import { suggestionFor } from './suggested-rule';

/**
 * Where a person decides an action argus has a suggestion for (SPEC §8d): the evidence, the rule
 * in words and, for a member with classification.manage, Create rule (enforced) or Try in
 * shadow. This action is still decided here by the person; the rule answers the next ones.
 */
export function SuggestedRuleCard({
  interrupt,
  action,
}: {
  interrupt: InterruptResponse;
  action: ActionRequestResponse;
}) {
  const suggestions = useRuleSuggestions();
  const canManage = useCan('classification.manage');
  const apply = useApplyRuleSuggestion();
  const [created, setCreated] = useState<{ id: string; name: string; mode: string } | null>(null);
  if (created !== null)
    return (
      <Alert color="teal" variant="light" role="status" title="Rule created">
        <Anchor component={Link} to={`/settings/classification/${created.id}`} size="sm">
          {created.name}
        </Anchor>{' '}
        ({created.mode}){' '}
        {created.mode === 'enforce'
          ? 'answers the next requests like this one at once.'
          : 'records what it would do; a person still decides.'}{' '}
        Decide this one here.
      </Alert>
    );
  const suggestion = suggestionFor(suggestions.data?.suggestions ?? [], interrupt, action);
  if (suggestion === undefined) return null;
  const make = (mode: 'shadow' | 'enforce') =>
    whenSettled(apply.mutateAsync({ id: suggestion.id, mode }), (rule) =>
      setCreated({ id: rule.id, name: rule.name, mode: rule.mode }),
    );
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-label={`Suggested rule: ${suggestion.rule.name}`}
    >
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          Argus suggests a rule
        </Text>
        <Text size="sm">
          <RuleSuggestionEvidence suggestion={suggestion} />. Rule: approve {suggestion.actionName}{' '}
          from {suggestion.keyName} {suggestedConditions(suggestion)}.
        </Text>
        <FormError error={apply.error} />
        <Group gap="xs">
          {canManage && (
            <CreateRuleButtons
              suggestion={suggestion}
              creating={apply.isPending ? apply.variables?.mode : undefined}
              onCreate={make}
            />
          )}
          <Anchor component={Link} to="/settings/classification" size="sm">
            All suggestions
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}
