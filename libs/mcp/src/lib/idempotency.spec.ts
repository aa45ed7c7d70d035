import { canonicalJson, idempotencyKeyFor } from './idempotency';

describe('idempotencyKeyFor', () => {
  const body = { title: 'Deploy?', actionRequests: [{ name: 'deploy', args: { a: 1, b: 2 } }] };

  it('is the same for the same request, whatever the key order or undefined members', () => {
    const reordered = {
      actionRequests: [{ args: { b: 2, a: 1 }, name: 'deploy' }],
      title: 'Deploy?',
      description: undefined,
    };
    expect(idempotencyKeyFor('request_approval', 'k1', reordered)).toBe(
      idempotencyKeyFor('request_approval', 'k1', body),
    );
  });

  it('differs with anything that changes the request, including the key that opens it', () => {
    const key = idempotencyKeyFor('request_approval', 'k1', body);
    expect(idempotencyKeyFor('request_approval', 'k1', { ...body, title: 'Deploy!' })).not.toBe(
      key,
    );
    expect(idempotencyKeyFor('request_approval', 'k2', body)).not.toBe(key);
    expect(idempotencyKeyFor('ask_human', 'k1', body)).not.toBe(key);
  });

  it('fits the API: 1–255 visible ASCII characters', () => {
    expect(idempotencyKeyFor('request_approval', 'k1', body)).toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: 'x' })).toBe(
      '{"a":"x","b":[2,{"c":null,"d":1}]}',
    );
  });
});
