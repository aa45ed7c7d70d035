import { jsonProblem, MAX_JSON_DEPTH } from './json-hygiene.util';

describe('jsonProblem', () => {
  it('accepts ordinary JSON', () => {
    expect(
      jsonProblem(
        { title: 'Deploy', actionRequests: [{ name: 'a', args: { n: 1, ok: true, x: null } }] },
        'body',
      ),
    ).toBeNull();
    expect(jsonProblem('plain', 'query.q')).toBeNull();
  });

  it('names a NUL character by its path', () => {
    expect(jsonProblem({ actionRequests: [{ name: 'a\u0000' }] }, 'body')).toBe(
      'body.actionRequests.0.name: contains the NUL character (U+0000), which cannot be stored',
    );
  });

  it('names a lone surrogate by its path, in values and keys', () => {
    expect(jsonProblem({ externalId: '\ud800' }, 'body')).toBe(
      'body.externalId: contains a lone UTF-16 surrogate (not well-formed Unicode)',
    );
    expect(jsonProblem({ metadata: { '\udc00': 1 } }, 'body')).toBe(
      'body.metadata: has a key that contains a lone UTF-16 surrogate (not well-formed Unicode)',
    );
    expect(jsonProblem({ ok: '😀' }, 'body')).toBeNull();
  });

  it('names a __proto__ key at any depth, and leaves every prototype alone', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const parsed = JSON.parse('{"a":[{"b":{"__proto__":{"polluted":true}}}]}') as unknown;
    expect(jsonProblem(parsed, 'body')).toBe(
      'body.a.0.b.__proto__: is not allowed as a field name',
    );
    expect(jsonProblem(JSON.parse('{"__proto__":null}'), 'body')).toBe(
      'body.__proto__: is not allowed as a field name',
    );
    expect(
      jsonProblem(JSON.parse('{"proto":1,"__proto":2,"constructor":{"prototype":3}}'), 'body'),
    ).toBeNull();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses nesting deeper than the limit without overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonProblem({ x: deep }, 'body')).toBe(
      `body: is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    let fine: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) fine = [fine];
    expect(jsonProblem(fine, 'body')).toBeNull();
  });
});
