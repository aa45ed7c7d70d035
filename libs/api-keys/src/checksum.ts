import { hash } from 'node:crypto';
import { ALPHABET_SIZE, KEY_ALPHABET, letterIndex } from './alphabet';

/**
 * The checksum of a key (SPEC §2). A key is `<prefix><body: 58 letters><check: 6 letters>`:
 *
 * - check letter 1 (key letter 59) is the Luhn mod 52 check character of the 58 body letters;
 * - check letters 2–6 (key letters 60–64) are the 5 low-order base-52 digits, most significant
 *   first, of SHA-256(prefix + body) read as a big-endian 256-bit unsigned integer, i.e.
 *   `digest mod 52^5` written as 5 base-52 digits.
 *
 * Why both: Luhn mod N detects every single-letter substitution in the body with certainty
 * (each position's contribution is a bijection of Z_52, so one changed letter always moves the
 * sum), where a truncated hash would only detect it with probability 1 − 52^-5. The digest
 * letters bind the prefix and make a random or hand-made string pass only with probability
 * 52^-6 ≈ 5e-11. Any change to the 6 check letters themselves is detected because they are
 * recomputed from the body. The low-order digits are used because the high-order base-52
 * digits of a 256-bit number are not uniform (the leading one is below 36).
 */

export const BODY_LETTERS = 58;
export const DIGEST_LETTERS = 5;

/** 52^5 = 380,204,032: small enough that `r * 16 + nibble` stays an exact integer. */
const DIGEST_MODULUS = ALPHABET_SIZE ** DIGEST_LETTERS;

/**
 * Luhn mod N's addend for a letter: the index itself, or, on doubled positions, the "sum of
 * digits" of 2 × index written in base 52 (2i when 2i < 52, else 2i − 51). For an even N this
 * is still a bijection: small indices map to the even residues, large ones to the odd ones.
 */
export function luhnAddend(index: number, doubled: boolean): number {
  if (!doubled) return index;
  const twice = index * 2;
  return twice < ALPHABET_SIZE ? twice : twice - (ALPHABET_SIZE - 1);
}

/**
 * The Luhn mod 52 check index of the BODY_LETTERS letters of `value` starting at `offset`, or
 * -1 if one of them is not an ASCII letter. As in decimal Luhn, the rightmost body letter is
 * doubled and doubling alternates leftwards; the check index makes the weighted sum of body
 * plus check ≡ 0 (mod 52). The caller guarantees `value` has the letters.
 */
export function luhnCheckIndex(value: string, offset: number): number {
  // BODY_LETTERS is even: letters at even i stand before an odd count and are taken as they
  // are, letters at odd i are doubled. Two at a time through tables made once — every presented
  // key is checked before its digest (issue 28) — where a letter test and an addend each were
  // about four times dearer than the SHA-256 beside it.
  let sum = 0;
  let refused = 0;
  for (let i = 0; i < BODY_LETTERS; i += 2) {
    const plain = value.charCodeAt(offset + i);
    const doubled = value.charCodeAt(offset + i + 1);
    const a = plain < 128 ? PLAIN_ADDEND[plain] : -1;
    const b = doubled < 128 ? DOUBLED_ADDEND[doubled] : -1;
    refused |= a | b;
    sum += a + b;
  }
  if (refused < 0) return -1;
  return (ALPHABET_SIZE - (sum % ALPHABET_SIZE)) % ALPHABET_SIZE;
}

/** By ASCII code: the letter's Luhn addend undoubled and doubled, -1 for a code that is no letter. */
const PLAIN_ADDEND = new Int8Array(128).fill(-1);
const DOUBLED_ADDEND = new Int8Array(128).fill(-1);
for (let code = 0; code < 128; code++) {
  const index = letterIndex(code);
  if (index < 0) continue;
  PLAIN_ADDEND[code] = luhnAddend(index, false);
  DOUBLED_ADDEND[code] = luhnAddend(index, true);
}

/** SHA-256 of `prefixAndBody` (UTF-8) read as a big-endian integer, modulo 52^5. */
export function digestRemainder(prefixAndBody: string): number {
  // One-shot hash to a hex string is several times faster than a Hash object and a Buffer, and
  // this runs on every request that presents a well-formed key.
  const hex = hash('sha256', prefixAndBody, 'hex');
  let remainder = 0;
  for (let i = 0; i < hex.length; i++) {
    const code = hex.charCodeAt(i);
    const nibble = code <= 57 ? code - 48 : code - 87; // '0'–'9', 'a'–'f'
    remainder = (remainder * 16 + nibble) % DIGEST_MODULUS;
  }
  return remainder;
}

/** Digit `position` (0 = most significant) of `remainder` written as 5 base-52 digits. */
export function digestDigit(remainder: number, position: number): number {
  return Math.floor(remainder / ALPHABET_SIZE ** (DIGEST_LETTERS - 1 - position)) % ALPHABET_SIZE;
}

/** The 6 check letters of a body under a prefix. `body` must be BODY_LETTERS ASCII letters. */
export function checkLetters(prefix: string, body: string): string {
  const luhn = luhnCheckIndex(body, 0);
  if (body.length !== BODY_LETTERS || luhn < 0) {
    throw new Error(`An API key body must be ${BODY_LETTERS} ASCII letters.`);
  }
  const remainder = digestRemainder(prefix + body);
  let letters = KEY_ALPHABET[luhn];
  for (let position = 0; position < DIGEST_LETTERS; position++) {
    letters += KEY_ALPHABET[digestDigit(remainder, position)];
  }
  return letters;
}
