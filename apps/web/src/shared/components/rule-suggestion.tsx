import type { ClassificationSuggestionResponse } from '@interlock/api-client';
import { Button } from '@mantine/core';

type RuleMode = 'shadow' | 'enforce';

/**
 * Why argus suggests a rule, in the words its card in Settings → Classification and the
 * interrupt page both use (a sentence the caller ends).
 */
export function RuleSuggestionEvidence({
  suggestion,
}: {
  suggestion: ClassificationSuggestionResponse;
}) {
  return (
    <>
      People approved <strong>{suggestion.actionName}</strong> from key{' '}
      <strong>{suggestion.keyName}</strong> {suggestion.approvals} times in the last 30 days and
      rejected it never
    </>
  );
}

/**
 * Create rule (enforced) and Try in shadow for a suggestion: the one being created shows its
 * spinner, both wait while it is under way.
 */
export function CreateRuleButtons({
  suggestion,
  creating,
  onCreate,
}: {
  suggestion: ClassificationSuggestionResponse;
  /** The mode of the rule being created from it, if one is. */
  creating: RuleMode | undefined;
  onCreate: (mode: RuleMode) => void;
}) {
  const label = `${suggestion.actionName} from ${suggestion.keyName}`;
  return (
    <>
      <Button
        size="xs"
        loading={creating === 'enforce'}
        disabled={creating !== undefined}
        onClick={() => onCreate('enforce')}
        aria-label={`Create rule: approve ${label}`}
      >
        Create rule
      </Button>
      <Button
        size="xs"
        variant="light"
        loading={creating === 'shadow'}
        disabled={creating !== undefined}
        onClick={() => onCreate('shadow')}
        aria-label={`Try in shadow: approve ${label}`}
      >
        Try in shadow
      </Button>
    </>
  );
}
