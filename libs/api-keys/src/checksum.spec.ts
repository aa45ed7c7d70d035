import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { KEY_ALPHABET, letterIndex } from './alphabet';
import {
  BODY_LETTERS,
  checkLetters,
  digestRemainder,
  luhnAddend,
  luhnCheckIndex,
} from './checksum';

const N = 52;

/** Luhn mod N exactly as usually written (walk from the right, factor starts at 2). */
function referenceLuhn(body: string): string {
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    let addend = factor * KEY_ALPHABET.indexOf(body[i]);
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / N) + (addend % N);
    sum += addend;
  }
  return KEY_ALPHABET[(N - (sum % N)) % N];
}

/** The 5 low-order base-52 digits of the digest, through BigInt rather than Horner's rule. */
function referenceDigestLetters(prefix: string, body: string): string {
  const digest = createHash('sha256')
    .update(prefix + body)
    .digest('hex');
  let n = BigInt(`0x${digest}`) % BigInt(N) ** 5n;
  let letters = '';
  for (let i = 0; i < 5; i++) {
    letters = KEY_ALPHABET[Number(n % BigInt(N))] + letters;
    n /= BigInt(N);
  }
  return letters;
}

const letter = fc.constantFrom(...KEY_ALPHABET);
const body = fc.string({ unit: letter, minLength: BODY_LETTERS, maxLength: BODY_LETTERS });
const prefix = fc.stringMatching(/^[a-z][a-z0-9]{0,15}_$/);

describe('alphabet', () => {
  it('maps A–Z to 0–25, a–z to 26–51 and everything else to -1', () => {
    for (let i = 0; i < KEY_ALPHABET.length; i++) {
      expect(letterIndex(KEY_ALPHABET.charCodeAt(i))).toBe(i);
    }
    const misread: number[] = [];
    for (let code = 0; code < 0x10000; code++) {
      const isLetter = KEY_ALPHABET.includes(String.fromCharCode(code));
      if (!isLetter && letterIndex(code) !== -1) misread.push(code);
    }
    expect(misread).toEqual([]);
  });
});

describe('Luhn mod 52', () => {
  it('uses a bijective addend on both plain and doubled positions', () => {
    for (const doubled of [false, true]) {
      const addends = new Set(Array.from({ length: N }, (_, i) => luhnAddend(i, doubled)));
      expect([...addends].sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i));
    }
  });

  it('agrees with the textbook algorithm', () => {
    fc.assert(
      fc.property(body, (b) => {
        expect(KEY_ALPHABET[luhnCheckIndex(b, 0)]).toBe(referenceLuhn(b));
      }),
    );
  });

  it('reads the body at an offset and refuses non-letters', () => {
    expect(luhnCheckIndex(`ilk_${'A'.repeat(BODY_LETTERS)}`, 4)).toBe(0);
    expect(luhnCheckIndex(`${'A'.repeat(BODY_LETTERS - 1)}1`, 0)).toBe(-1);
  });

  it.each([0, 1, 30, 57])(
    'refuses at body position %i a non-letter, and a code past ASCII whose low bits are a letter',
    (position) => {
      for (const intruder of ['1', '{', '\u00c1', '\u0141', '\u2041']) {
        const b = `${'A'.repeat(position)}${intruder}${'A'.repeat(BODY_LETTERS - 1 - position)}`;
        expect(luhnCheckIndex(b, 0)).toBe(-1);
      }
    },
  );
});

describe('check letters', () => {
  it('are the Luhn letter then the 5 low-order base-52 digits of SHA-256(prefix + body)', () => {
    fc.assert(
      fc.property(prefix, body, (p, b) => {
        expect(checkLetters(p, b)).toBe(referenceLuhn(b) + referenceDigestLetters(p, b));
      }),
    );
  });

  it('keep digestRemainder below 52^5', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = digestRemainder(s);
        expect(Number.isInteger(r) && r >= 0 && r < N ** 5).toBe(true);
      }),
    );
  });

  it('refuse a body that is not 58 letters', () => {
    expect(() => checkLetters('ilk_', 'A'.repeat(57))).toThrow(/58 ASCII letters/);
    expect(() => checkLetters('ilk_', `${'A'.repeat(57)}_`)).toThrow(/58 ASCII letters/);
  });
});
