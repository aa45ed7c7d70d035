import type { ClassificationSuggestionResponse } from '@interlock/api-client';

/**
 * A suggested rule's argument conditions in words ("amount lte 50 and currency eq \"EUR\""), on its
 * card in Settings → Classification and on the interrupt page alike.
 */
export function suggestedConditions(suggestion: ClassificationSuggestionResponse): string {
  const args = suggestion.rule.match.args ?? [];
  return args.length === 0
    ? 'with any arguments'
    : `when ${args.map((p) => `${p.path} ${p.op} ${JSON.stringify(p.value)}`).join(' and ')}`;
}
