/**
 * The contract's form of what the request hygiene refuses in text (JSON Schema `pattern`s,
 * written so JavaScript and Python regular expressions read them alike: explicit character
 * classes, no `\s`).
 */

/** No NUL character (U+0000): Postgres text and jsonb cannot store it. */
export const NUL_FREE_PATTERN = '^[^\\u0000]*$';

/** JavaScript's `\s`, spelled out. */
const WHITESPACE =
  '\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** At least one character that is not whitespace (`/\S/`, the not-blank rule), and no NUL. */
export const NOT_BLANK_PATTERN = `^[^\\u0000]*[^\\u0000${WHITESPACE}][^\\u0000]*$`;
