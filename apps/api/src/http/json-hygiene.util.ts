/** Deeper JSON than this is refused: nothing the API takes nests further, and deep input
 * exhausts the stack of the transformer that maps bodies onto DTOs. */
export const MAX_JSON_DEPTH = 64;

/**
 * Finds what Postgres or the DTO machinery cannot take in parsed JSON, without recursion:
 * nesting deeper than MAX_JSON_DEPTH, strings (values or keys) holding U+0000 or a lone
 * UTF-16 surrogate (which jsonb and text refuse), and a `__proto__` key at any depth (JSON.parse
 * makes it a plain own property, but the DTO transformer and any object spread or merge would
 * treat it as the prototype: it is refused before they see it). Returns a message naming the
 * offending path (`body.actionRequests.0.args.x: …`), or null when the value is fine.
 */
export function jsonProblem(value: unknown, root: string): string | null {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  while (stack.length > 0) {
    const [current, path, depth] = stack.pop() as [unknown, string, number];
    if (typeof current === 'string') {
      const problem = stringProblem(current);
      if (problem) return `${path}: ${problem}`;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return `${root}: is nested deeper than ${MAX_JSON_DEPTH} levels`;
    const entries = Array.isArray(current)
      ? current.map((v, i) => [String(i), v] as const)
      : Object.entries(current);
    for (const [key, child] of entries) {
      if (key === '__proto__') return `${path}.__proto__: is not allowed as a field name`;
      const keyProblem = stringProblem(key);
      if (keyProblem) return `${path}: has a key that ${keyProblem}`;
      stack.push([child, `${path}.${key}`, depth + 1]);
    }
  }
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains the NUL character (U+0000), which cannot be stored';
  if (LONE_SURROGATE.test(text))
    return 'contains a lone UTF-16 surrogate (not well-formed Unicode)';
  return null;
}
