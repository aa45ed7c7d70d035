import { createHash, randomBytes } from 'node:crypto';

/**
 * The secret tokens a `HashedTokenRow` is found by (an emailed link, an invitation, a sign-in
 * session's cookie): 32 random bytes, base64url — 43 characters, a shape the log's redaction
 * recognises (`TOKEN_LIKE` in logging/logger.ts).
 */
export const SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new secret token: 32 random bytes, base64url. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, hex. */
export function secretTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The hash of a well-formed token, else undefined (a malformed one is looked up nowhere). */
export function wellFormedTokenHash(token: string): string | undefined {
  return SECRET_TOKEN_PATTERN.test(token) ? secretTokenHash(token) : undefined;
}
