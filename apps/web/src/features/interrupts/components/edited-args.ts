import type { JsonObject } from '@interlock/api-client';

/** The edit decision's `editedArgs`: a JSON object, checked before anything is sent. */
export type EditedArgsResult = { ok: true; value: JsonObject } | { ok: false; error: string };

const MAX_BYTES = 512 * 1024;

export function parseEditedArgs(text: string): EditedArgsResult {
  if (text.trim() === '')
    return {
      ok: false,
      error: 'Enter the edited arguments as a JSON object, e.g. {"amount": 40}.',
    };
  if (new TextEncoder().encode(text).length > MAX_BYTES)
    return { ok: false, error: 'The edited arguments are larger than 512 KB.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      error:
        'The edited arguments must be a JSON object ({…}), not ' +
        (Array.isArray(value) ? 'an array.' : value === null ? 'null.' : `a ${typeof value}.`),
    };
  }
  // The contract's JSON holds no NUL character; JSON text can only carry one escaped.
  if (/(^|[^\\])(\\\\)*\\u0000/i.test(text))
    return {
      ok: false,
      error: 'The edited arguments may not contain the NUL character (\\u0000).',
    };
  return { ok: true, value: value as JsonObject };
}
