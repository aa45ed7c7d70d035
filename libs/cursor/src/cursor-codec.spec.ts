import { createHmac } from 'node:crypto';
import {
  CursorCodec,
  deriveCursorKey,
  KeysetCursorCodec,
  MAX_CURSOR_LENGTH,
  SIGNATURES_KEPT,
} from './index';

const SECRET = 'a-server-secret-of-enough-length-0123456789';
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const OTHER_ORG = '0e7f4c1a-1b2c-4d3e-8f90-a1b2c3d4e5f6';
const scope = { organisationId: ORG, filters: 'status=open' };

describe('deriveCursorKey', () => {
  it('derives one key per purpose, none equal to an HMAC of the secret itself', () => {
    const a = deriveCursorKey(SECRET, 'interrupts.list');
    const b = deriveCursorKey(SECRET, 'sessions.list');
    expect(a).toHaveLength(32);
    expect(a.equals(b)).toBe(false);
    expect(a.equals(deriveCursorKey(SECRET, 'interrupts.list'))).toBe(true);
    expect(
      a.equals(createHmac('sha256', SECRET).update('interlock/cursor/interrupts.list/v1').digest()),
    ).toBe(false);
  });

  it('refuses an empty secret', () => {
    expect(() => deriveCursorKey('', 'x')).toThrow('A cursor secret is required');
  });
});

describe('CursorCodec', () => {
  const codec = new CursorCodec(SECRET, 'audit-log.list');

  it('round-trips fields under the same scope', () => {
    const token = codec.encode(scope, ['a', '12', '']);
    expect(codec.decode(scope, token, 3)).toEqual(['a', '12', '']);
  });

  it('refuses another organisation, other filters, another purpose, another secret, another arity', () => {
    const token = codec.encode(scope, ['a', 'b']);
    expect(codec.decode({ ...scope, organisationId: OTHER_ORG }, token, 2)).toBeUndefined();
    expect(codec.decode({ ...scope, filters: 'status=answered' }, token, 2)).toBeUndefined();
    expect(new CursorCodec(SECRET, 'sessions.list').decode(scope, token, 2)).toBeUndefined();
    expect(
      new CursorCodec(`${SECRET}-rotated`, 'audit-log.list').decode(scope, token, 2),
    ).toBeUndefined();
    expect(codec.decode(scope, token, 3)).toBeUndefined();
  });

  it('refuses any altered character, garbage and overlong tokens', () => {
    const token = codec.encode(scope, ['2026-11-21T10:11:12.345Z', '7']);
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === 'A' ? 'B' : 'A';
      expect(codec.decode(scope, token.slice(0, i) + c + token.slice(i + 1), 2)).toBeUndefined();
    }
    for (const junk of ['', '.', 'abc', 'a.b.c', `${token}.x`, `.${token}`])
      expect(codec.decode(scope, junk, 2)).toBeUndefined();
    const long = codec.encode(scope, ['x'.repeat(MAX_CURSOR_LENGTH), 'y']);
    expect(codec.decode(scope, long, 2)).toBeUndefined();
  });

  it("signs as the format says: HMAC-SHA-256 under the kind's derived key, its first 16 bytes", () => {
    const [payload, signature] = codec.encode(scope, ['a', '12']).split('.');
    const expected = createHmac('sha256', deriveCursorKey(SECRET, 'audit-log.list'))
      .update(JSON.stringify([ORG, scope.filters, payload]))
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    expect(signature).toBe(expected);
  });

  it('refuses a well-signed payload that is not an array of strings', () => {
    const forge = (value: unknown) => {
      const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
      const signature = createHmac('sha256', deriveCursorKey(SECRET, 'audit-log.list'))
        .update(JSON.stringify([ORG, scope.filters, payload]))
        .digest()
        .subarray(0, 16)
        .toString('base64url');
      return `${payload}.${signature}`;
    };
    expect(codec.decode(scope, forge(['a', 'b']), 2)).toEqual(['a', 'b']);
    expect(codec.decode(scope, forge(['a', 1]), 2)).toBeUndefined();
    expect(codec.decode(scope, forge({ a: 1 }), 2)).toBeUndefined();
  });
});

describe('CursorCodec, the signatures it keeps', () => {
  it('verifies a cursor issued by another codec of the same secret and kind (another process)', () => {
    const token = new CursorCodec(SECRET, 'audit-log.list').encode(scope, ['a', 'b']);
    expect(new CursorCodec(SECRET, 'audit-log.list').decode(scope, token, 2)).toEqual(['a', 'b']);
  });

  it('issues the same cursor again, and past SIGNATURES_KEPT cursors still verifies each and refuses a forgery', () => {
    const codec = new CursorCodec(SECRET, 'audit-log.list');
    const first = codec.encode(scope, ['0', 'x']);
    expect(codec.encode(scope, ['0', 'x'])).toBe(first);
    const tokens = Array.from({ length: SIGNATURES_KEPT + 10 }, (_, i) =>
      codec.encode(scope, [String(i), 'x']),
    );
    expect(tokens[0]).toBe(first);
    const fresh = new CursorCodec(SECRET, 'audit-log.list');
    for (const [i, token] of tokens.entries()) {
      expect(codec.decode(scope, token, 2)).toEqual([String(i), 'x']);
      expect(fresh.encode(scope, [String(i), 'x'])).toBe(token);
    }
    // A kept payload with another signature, and the kept signature under another scope.
    const last = tokens[tokens.length - 1];
    const [payload, signature] = last.split('.');
    const other = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(codec.decode(scope, `${payload}.${other}`, 2)).toBeUndefined();
    expect(codec.decode({ ...scope, filters: 'status=answered' }, last, 2)).toBeUndefined();
    // Kept for one organisation, it is no cursor of another's (same filters, same payload).
    expect(codec.decode({ ...scope, organisationId: OTHER_ORG }, last, 2)).toBeUndefined();
  });
});

describe('KeysetCursorCodec', () => {
  const codec = new KeysetCursorCodec(SECRET, 'interrupts.list');
  const position = {
    createdAt: new Date('2026-11-21T10:11:12.345Z'),
    id: '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10',
  };

  it('round-trips a position for the same scope, and nowhere else', () => {
    const cursor = codec.encode(scope, position);
    expect(codec.decode(scope, cursor)).toEqual(position);
    expect(codec.decode({ ...scope, filters: 'status=answered' }, cursor)).toBeUndefined();
    expect(codec.decode({ ...scope, organisationId: OTHER_ORG }, cursor)).toBeUndefined();
    expect(new KeysetCursorCodec(SECRET, 'sessions.list').decode(scope, cursor)).toBeUndefined();
  });

  it('refuses a well-signed cursor whose fields are not a position', () => {
    const raw = new CursorCodec(SECRET, 'interrupts.list');
    expect(
      codec.decode(scope, raw.encode(scope, ['2026-11-21T10:11:12.345Z', 'not-a-uuid'])),
    ).toBeUndefined();
    expect(codec.decode(scope, raw.encode(scope, ['yesterday', position.id]))).toBeUndefined();
    expect(
      codec.decode(scope, raw.encode(scope, ['2026-11-21T10:11:12.345Z', position.id])),
    ).toEqual(position);
  });
});
