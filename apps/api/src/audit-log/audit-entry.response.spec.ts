import { compactJson } from './audit-entry.response';

/** JSON as Postgres writes jsonb: a space after each `:` and `,`, keys by length then bytes. */
function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

describe('compactJson', () => {
  it('takes out the spaces Postgres puts between tokens, and none inside strings', () => {
    expect(compactJson('{"a": 1, "b": [true, null, "x y"]}')).toBe('{"a":1,"b":[true,null,"x y"]}');
    expect(compactJson('{"k": "\\": \\", ", "z": {}}')).toBe('{"k":"\\": \\", ","z":{}}');
    expect(compactJson('{"k": "ends in a backslash \\\\", "n": -2.5}')).toBe('{"k":"ends in a backslash \\\\","n":-2.5}');
    expect(compactJson('[]')).toBe('[]');
    expect(compactJson('"just a string"')).toBe('"just a string"');
  });

  it('gives the JSON.stringify bytes of metadata shaped like the audit catalogue’s', () => {
    const values = [
      { externalId: 'run 42', actionRequests: ['deploy', 'notify, then wait'] },
      { previousName: 'a "b" c', name: 'tab\there, newline\n, \\ and ✓ 😀' },
      { level: 3, reason: null, failingForMs: 86_400_000, ratio: 0.25 },
      { permissions: [], added: ['x'], removed: [], nested: { deep: [{ a: [1, [2, [3]]] }] } },
      {},
    ];
    for (const value of values) {
      const text = jsonbText(value);
      expect(compactJson(text)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });
});
