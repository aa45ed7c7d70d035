/**
 * JSON text written by hand for the request line's one fixed shape (`requestLineWriter`): the
 * same text `JSON.stringify` writes for the same values, without building the objects it would
 * be handed. V8's `JSON.stringify` of the line's header objects was the largest part of the
 * line's cost (the response's headers are a null-prototype object, which it walks slowly:
 * issue 28, BENCHMARKS.md).
 */

/** A character `JSON.stringify` writes escaped: `"`, `\`, a control character, a surrogate. */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `text` as a JSON string: quoted as it is when nothing in it needs escaping. */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** A header's value as JSON: a string, or what `JSON.stringify` writes for anything else (a number, a list). */
export function jsonValue(value: unknown): string | undefined {
  return typeof value === 'string' ? jsonString(value) : JSON.stringify(value);
}

/**
 * The members of a JSON object for `record`'s fields, the text between its braces (`"a":1,"b":"x"`;
 * '' for none), each value through `censor` (a name → the text to write instead, or undefined to
 * write the value); a field whose value is undefined is left out, as `JSON.stringify` leaves it.
 * Written in one pass, each member once (the request line's headers: issue 28).
 */
export function jsonFields(
  record: Readonly<Record<string, unknown>>,
  censor: (name: string, value: unknown) => string | undefined,
): string {
  let text = '';
  // Before a member's name: its opening quote, and a comma after the first.
  let opening = '"';
  for (const name in record) {
    const value = record[name];
    if (value === undefined) continue;
    const written = jsonValue(censor(name, value) ?? value);
    if (written === undefined) continue;
    text += NEEDS_ESCAPE.test(name)
      ? `${opening.slice(0, -1)}${JSON.stringify(name)}:${written}`
      : `${opening}${name}":${written}`;
    opening = ',"';
  }
  return text;
}

/** `jsonFields`' members each after a comma (`,"a":1,"b":"x"`; '' for none), to follow others. */
export function jsonMembers(
  record: Readonly<Record<string, unknown>>,
  censor: (name: string, value: unknown) => string | undefined,
): string {
  const fields = jsonFields(record, censor);
  return fields === '' ? '' : `,${fields}`;
}
