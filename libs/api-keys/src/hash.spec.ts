import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { apiKeyHashesEqual, constantTimeEqual, hashApiKey } from './hash';

const KEY = 'ilk_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzABCDEFpnPGcZ';

describe('hashApiKey', () => {
  it('is HMAC-SHA-256 of the key under the pepper, in hex', () => {
    // Known answer from Python's hmac module.
    expect(hashApiKey(KEY, 'pepper')).toBe(
      'bfd1b0b6d3e97cea0195c00800e2a598d140dd6c371777dee140b1dbb0e2cffa',
    );
    expect(hashApiKey(KEY, Buffer.from('pepper'))).toBe(hashApiKey(KEY, 'pepper'));
  });

  it('is the HMAC under the pepper as given, when the pepper changes between calls', () => {
    // Lone surrogates included: a string pepper is imported once as its UTF-8 bytes, as createHmac takes it.
    fc.assert(
      fc.property(fc.string(), fc.string({ unit: 'binary', minLength: 1 }), (value, pepper) => {
        expect(hashApiKey(value, pepper)).toBe(
          createHmac('sha256', pepper).update(value, 'utf8').digest('hex'),
        );
      }),
    );
  });

  it('is deterministic and 64 hex characters', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (value, pepper) => {
        const hash = hashApiKey(value, pepper);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(hashApiKey(value, pepper)).toBe(hash);
      }),
    );
  });

  it('depends on the pepper and on the value', () => {
    const pepper = fc.uint8Array({ minLength: 1 }).map((bytes) => Buffer.from(bytes));
    fc.assert(
      fc.property(fc.string(), pepper, pepper, (value, a, b) => {
        fc.pre(!a.equals(b));
        expect(hashApiKey(value, a)).not.toBe(hashApiKey(value, b));
      }),
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(hashApiKey(a, 'pepper')).not.toBe(hashApiKey(b, 'pepper'));
      }),
    );
  });

  it('refuses an empty pepper', () => {
    expect(() => hashApiKey(KEY, '')).toThrow(/pepper must not be empty/);
    expect(() => hashApiKey(KEY, Buffer.alloc(0))).toThrow(/pepper must not be empty/);
  });
});

describe('constantTimeEqual', () => {
  it('agrees with === on arbitrary strings, including different lengths', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(a, a)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('handles edge cases without throwing', () => {
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('', 'a')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual(KEY, KEY.slice(0, -1) + 'Y')).toBe(false);
    expect(constantTimeEqual('x'.repeat(1_000_000), 'x'.repeat(1_000_000))).toBe(true);
    // These two are the same bytes in UTF-8; they are different strings.
    expect(constantTimeEqual('\uD800', '\uFFFD')).toBe(false);
  });
});

describe('apiKeyHashesEqual', () => {
  const a = hashApiKey('ilk_one', 'pepper');
  const b = hashApiKey('ilk_two', 'pepper');

  it('is true for the same digest and false for another', () => {
    expect(apiKeyHashesEqual(a, a)).toBe(true);
    expect(apiKeyHashesEqual(a, b)).toBe(false);
  });

  it('is false, without throwing, for anything that is not a digest', () => {
    expect(apiKeyHashesEqual(a, a.slice(2))).toBe(false);
    expect(apiKeyHashesEqual(a, a.toUpperCase())).toBe(false);
    expect(apiKeyHashesEqual('', '')).toBe(false);
  });
});
