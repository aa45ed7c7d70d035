import { createHash } from 'node:crypto';
import { actionDigest, canonicalJson } from './action-digest.util';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units at every depth and writes no whitespace', () => {
    expect(
      canonicalJson({ b: [3, { z: 1, a: 'x' }], a: null, '\u20ac': 1, '\ud83d\ude00': 2, '\r': 0 }),
    ).toBe('{"\\r":0,"a":null,"b":[3,{"a":"x","z":1}],"€":1,"😀":2}');
  });

  it('writes numbers as ECMAScript does (RFC 8785 §3.2.2.3)', () => {
    expect(canonicalJson([1e21, 1e-7, -0, 0.1 + 0.2, 100, 4.5])).toBe(
      '[1e+21,1e-7,0,0.30000000000000004,100,4.5]',
    );
  });

  it('refuses what JSON cannot carry', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow('non-finite');
    expect(() => canonicalJson(() => 1)).toThrow('function');
  });
});

describe('actionDigest', () => {
  const id = '0b7d3c1e-6a43-4f0e-9b0a-3f6f1d7a9c11';

  it('is the hex SHA-256 of the canonical {interruptId, name, args}', () => {
    const expected = createHash('sha256')
      .update(`{"args":{"a":1,"b":2},"interruptId":"${id}","name":"deploy"}`)
      .digest('hex');
    expect(actionDigest(id, 'deploy', { b: 2, a: 1 })).toBe(expected);
  });

  it('changes with the interrupt, the name or any argument, and not with key order', () => {
    const base = actionDigest(id, 'deploy', { env: 'prod', replicas: 3 });
    expect(actionDigest(id, 'deploy', { replicas: 3, env: 'prod' })).toBe(base);
    expect(actionDigest(id, 'deploy', { env: 'prod', replicas: 4 })).not.toBe(base);
    expect(actionDigest(id, 'Deploy', { env: 'prod', replicas: 3 })).not.toBe(base);
    expect(
      actionDigest('1b7d3c1e-6a43-4f0e-9b0a-3f6f1d7a9c11', 'deploy', { env: 'prod', replicas: 3 }),
    ).not.toBe(base);
    expect(actionDigest(id, 'deploy', null)).toBe(actionDigest(id, 'deploy', {}));
  });
});
