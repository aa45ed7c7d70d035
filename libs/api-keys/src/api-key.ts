import { randomBytes } from 'node:crypto';
import { ALPHABET_SIZE, KEY_ALPHABET, letterIndex } from './alphabet';
import {
  BODY_LETTERS,
  DIGEST_LETTERS,
  checkLetters,
  digestDigit,
  digestRemainder,
  luhnCheckIndex,
} from './checksum';

/** Letters after the prefix: 58 random, then 6 check letters (see checksum.ts). */
export const API_KEY_LETTERS = 64;

export const DEFAULT_API_KEY_PREFIX = 'ilk_';

/** A prefix is a lower-case letter, up to 15 lower-case letters or digits, then `_`. */
export const API_KEY_PREFIX_PATTERN = /^[a-z][a-z0-9]{0,15}_$/;

/** Letters kept after the prefix in the displayed `start` (SPEC §2). */
export const API_KEY_START_LETTERS = 4;

export type ApiKeyParseResult =
  | { readonly ok: true; readonly start: string }
  | { readonly ok: false; readonly reason: 'malformed' | 'checksum' };

/** Wrong prefix, wrong length or a character that is not an ASCII letter. */
const MALFORMED: ApiKeyParseResult = Object.freeze({ ok: false, reason: 'malformed' });
/** The right shape, but the check letters do not match the body. */
const CHECKSUM: ApiKeyParseResult = Object.freeze({ ok: false, reason: 'checksum' });

export function isValidApiKeyPrefix(prefix: unknown): prefix is string {
  return typeof prefix === 'string' && API_KEY_PREFIX_PATTERN.test(prefix);
}

/** Throws a descriptive Error for a prefix that does not match API_KEY_PREFIX_PATTERN. */
export function assertValidApiKeyPrefix(prefix: unknown): asserts prefix is string {
  if (!isValidApiKeyPrefix(prefix)) {
    throw new Error(
      `Invalid API key prefix ${JSON.stringify(prefix)}: it must match ` +
        `${API_KEY_PREFIX_PATTERN} (a lower-case letter, up to 15 lower-case letters or ` +
        `digits, then "_"), e.g. "${DEFAULT_API_KEY_PREFIX}".`,
    );
  }
}

// The prefix comes from configuration and is the same on every call: validate it once, not per
// request.
let lastValidPrefix: string | undefined;
function requireValidPrefix(prefix: string): void {
  if (prefix === lastValidPrefix) return;
  assertValidApiKeyPrefix(prefix);
  lastValidPrefix = prefix;
}

/** Bytes drawn per batch: 80 × 208/256 = 65 accepted on average, enough for 58 almost always. */
const RANDOM_BATCH = 80;
/** 208 = 4 × 52: accepting only bytes below it makes `byte % 52` exactly uniform. */
const REJECT_FROM = ALPHABET_SIZE * Math.floor(256 / ALPHABET_SIZE);

/** A new key: the prefix, 58 uniformly random letters (CSPRNG), then their 6 check letters. */
export function generateApiKey(prefix: string): string {
  requireValidPrefix(prefix);
  let body = '';
  while (body.length < BODY_LETTERS) {
    const bytes = randomBytes(RANDOM_BATCH);
    for (let i = 0; i < bytes.length && body.length < BODY_LETTERS; i++) {
      if (bytes[i] < REJECT_FROM) body += KEY_ALPHABET[bytes[i] % ALPHABET_SIZE];
    }
  }
  return prefix + body + checkLetters(prefix, body);
}

/**
 * Checks a presented key's shape and checksum without any lookup. Never throws on the value
 * (non-strings and strings of any size answer `malformed`; the length is checked before any
 * other work); throws only if `prefix` itself is invalid, which is a configuration error.
 * On success, `start` is the displayed start (prefix + 4 letters).
 */
export function parseApiKey(value: string, prefix: string): ApiKeyParseResult {
  const refused = apiKeyFormRefusal(value, prefix);
  if (refused !== undefined) return refused;
  const checkStart = prefix.length + BODY_LETTERS;
  const remainder = digestRemainder(value.substring(0, checkStart));
  for (let position = 0; position < DIGEST_LETTERS; position++) {
    const presented = letterIndex(value.charCodeAt(checkStart + 1 + position));
    if (presented !== digestDigit(remainder, position)) return CHECKSUM;
  }
  return { ok: true, start: value.substring(0, prefix.length + API_KEY_START_LETTERS) };
}

/**
 * What `parseApiKey` answers for `value` from its form alone, before any hashing — the prefix,
 * the length, the letters and the Luhn check letter (a mistyped body or check letter) —, or
 * undefined when only the digest's check letters are left to check. A caller that would hash
 * the value anyway (to look it up) refuses these first, for the cost of one pass over it.
 */
export function apiKeyFormRefusal(value: string, prefix: string): ApiKeyParseResult | undefined {
  requireValidPrefix(prefix);
  if (typeof value !== 'string' || value.length !== prefix.length + API_KEY_LETTERS) {
    return MALFORMED;
  }
  if (!value.startsWith(prefix)) return MALFORMED;

  const bodyStart = prefix.length;
  const checkStart = bodyStart + BODY_LETTERS;
  const luhn = luhnCheckIndex(value, bodyStart);
  if (luhn < 0) return MALFORMED;
  const presentedLuhn = letterIndex(value.charCodeAt(checkStart));
  if (presentedLuhn < 0) return MALFORMED;
  for (let position = 0; position < DIGEST_LETTERS; position++) {
    if (letterIndex(value.charCodeAt(checkStart + 1 + position)) < 0) return MALFORMED;
  }
  // Cheap test first: a mistyped body letter or check letter fails here, before any hashing.
  if (presentedLuhn !== luhn) return CHECKSUM;
  return undefined;
}

/** The displayed start of a well-formed key: the prefix and its first 4 letters. */
export function apiKeyStart(value: string, prefix: string): string {
  const parsed = parseApiKey(value, prefix);
  if (!parsed.ok) {
    throw new Error(`Cannot take the start of an API key that does not parse (${parsed.reason}).`);
  }
  return parsed.start;
}
