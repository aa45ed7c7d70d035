import type {
  ActionRequestResponse,
  ClassificationSuggestionResponse,
  InterruptResponse,
} from '@interlock/api-client';

/** JSON's type of a value, as Postgres's `jsonb_typeof` names it (the API's argument shape). */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** An action's argument shape as suggestions are grouped by: each top-level argument's JSON type. */
export function argumentShape(args: unknown): Record<string, string> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return {};
  return Object.fromEntries(Object.entries(args).map(([name, v]) => [name, jsonType(v)]));
}

const sameShape = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, type]) => b[name] === type);

/**
 * The suggestion made of requests like this action (SPEC §8d): the key that opened the interrupt,
 * the action's name and its argument shape — what people approved at least 5 times and never
 * rejected. Undefined when argus suggests nothing for it.
 */
export function suggestionFor(
  suggestions: readonly ClassificationSuggestionResponse[],
  interrupt: Pick<InterruptResponse, 'openedBy'>,
  action: Pick<ActionRequestResponse, 'name' | 'args'>,
): ClassificationSuggestionResponse | undefined {
  const keyId = interrupt.openedBy?.id;
  if (keyId === undefined) return undefined;
  const shape = argumentShape(action.args);
  return suggestions.find(
    (s) => s.keyId === keyId && s.actionName === action.name && sameShape(s.shape, shape),
  );
}
