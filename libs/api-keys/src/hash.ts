import {
  createHmac,
  createSecretKey,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

/**
 * What is stored for a key (SPEC §2): HMAC-SHA-256 of the full key value (UTF-8) under the
 * server pepper, as 64 lower-case hex characters. Without the pepper a leaked table cannot be
 * used to test guesses. An empty pepper is refused: it would turn the HMAC into a keyed hash
 * with a public key.
 */
export function hashApiKey(value: string, pepper: string | Buffer): string {
  if (pepper.length === 0) throw new Error('The API key pepper must not be empty.');
  return createHmac('sha256', pepperKey(pepper)).update(value, 'utf8').digest('hex');
}

// The pepper comes from configuration and is the same on every call: imported as a key once,
// not per request (an HMAC under a KeyObject costs ~2.7 µs here, under a string ~4.7 µs).
let lastPepper: string | Buffer | undefined;
let lastPepperKey: KeyObject | undefined;
function pepperKey(pepper: string | Buffer): KeyObject {
  if (pepper !== lastPepper || lastPepperKey === undefined) {
    // A string pepper is its UTF-8 bytes, as createHmac would take it.
    lastPepperKey = createSecretKey(
      typeof pepper === 'string' ? Buffer.from(pepper, 'utf8') : Buffer.from(pepper),
    );
    lastPepper = typeof pepper === 'string' ? pepper : undefined;
  }
  return lastPepperKey;
}

/**
 * Whether two `hashApiKey` digests are equal, in constant time. Both are 64 hex characters, so
 * this compares their bytes directly (no extra HMAC, unlike `constantTimeEqual`): it runs on
 * every authenticated request. Anything that is not such a digest compares false.
 */
export function apiKeyHashesEqual(a: string, b: string): boolean {
  if (!HEX_DIGEST.test(a) || !HEX_DIGEST.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;

// A per-process key, so both sides of a comparison become 32 bytes whatever their lengths.
const COMPARISON_KEY = randomBytes(32);

function comparisonDigest(value: string): Buffer {
  // UTF-16LE maps every JS string (lone surrogates included) to distinct bytes; UTF-8 would
  // turn '\uD800' and '\uFFFD' into the same bytes.
  return createHmac('sha256', COMPARISON_KEY).update(value, 'utf16le').digest();
}

/**
 * `a === b`, in time that depends only on the lengths of `a` and `b` (hashing them is
 * unavoidably proportional to length), never on where they differ. Strings of different
 * lengths compare false without throwing; HMACs of different strings collide with negligible
 * probability (2^-256).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(comparisonDigest(a), comparisonDigest(b));
}
