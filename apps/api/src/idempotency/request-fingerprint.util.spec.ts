import { canonicalJson, requestFingerprint } from './request-fingerprint.util';

describe('request fingerprints', () => {
  it('ignore key order but not values, arrays order, method or path', () => {
    const a = requestFingerprint('POST', '/api/interrupts', {
      title: 't',
      actionRequests: [{ name: 'x', args: { b: 1, a: 2 } }],
    });
    const b = requestFingerprint('post', '/api/interrupts', {
      actionRequests: [{ args: { a: 2, b: 1 }, name: 'x' }],
      title: 't',
    });
    expect(a).toBe(b);
    expect(requestFingerprint('POST', '/api/interrupts', { title: 'u' })).not.toBe(
      requestFingerprint('POST', '/api/interrupts', { title: 't' }),
    );
    expect(requestFingerprint('POST', '/api/sessions', {})).not.toBe(
      requestFingerprint('POST', '/api/interrupts', {}),
    );
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('treats an absent body as null', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });
});
