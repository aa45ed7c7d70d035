import { scrypt } from 'node:crypto';
import {
  decoyPasswordHash,
  hashPassword,
  needsRehash,
  passwordMatches,
  verifyPassword,
} from './password.util';

// scrypt as it is, counted: what a refusal costs is the work it did, not a timing.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, scrypt: jest.fn(actual.scrypt) };
});

describe('password hashing (scrypt, SPEC §8f)', () => {
  it('hashes at N = 2^17, r = 8, p = 1 by default (OWASP), with the parameters in the hash', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    // 128 MiB and ~0.6 s of a core per hash, far more on a loaded machine: a bound, not a timing.
  }, 120_000);

  it('verifies a hash made at another cost, and says it needs rehashing at today’s', async () => {
    const old = await hashPassword('correct horse battery', 15);
    expect(old.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(old, 15)).toBe(false);
  });

  it('refuses malformed or absurdly costly stored hashes without computing them', async () => {
    for (const stored of [
      '',
      'bcrypt$x',
      'scrypt$abc$8$1$c2FsdA==$aGFzaA==',
      `scrypt$${2 ** 24}$8$1$c2FsdA==$aGFzaA==`,
    ]) {
      expect(await verifyPassword('x', stored)).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it('normalises the password to NFC, so a composed and a decomposed é are one password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait', 12);
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it('refuses an account single sign-on made (no password) after one scrypt at today’s cost, as a wrong password or an unknown address', async () => {
    const stored = await hashPassword('correct horse battery', 12);
    await decoyPasswordHash(12);
    const work = jest.mocked(scrypt);
    const costOf = async (password: string, hash: string | undefined) => {
      work.mockClear();
      const matched = await passwordMatches(password, hash, 12);
      return { matched, costs: work.mock.calls.map((call) => (call[3] as { N: number }).N) };
    };
    expect(await costOf('correct horse battery', stored)).toEqual({ matched: true, costs: [4096] });
    expect(await costOf('a guess', stored)).toEqual({ matched: false, costs: [4096] });
    expect(await costOf('a guess', undefined)).toEqual({ matched: false, costs: [4096] });
    expect(await costOf('none:single-sign-on', 'none:single-sign-on')).toEqual({
      matched: false,
      costs: [4096],
    });
  });

  it('keeps one decoy per cost, a hash nobody’s password matches', async () => {
    expect(await decoyPasswordHash(12)).toBe(await decoyPasswordHash(12));
    expect((await decoyPasswordHash(12)).startsWith('scrypt$4096$')).toBe(true);
    expect(await verifyPassword('', await decoyPasswordHash(12))).toBe(false);
  });
});
