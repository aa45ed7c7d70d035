import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters (the log's redaction recognises the shape). */
export const ACCOUNT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new emailed token (password reset, email verification): 32 random bytes, base64url. */
export function newAccountToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, hex. */
export function accountTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The hash of a well-formed token, else undefined (a malformed one is looked up nowhere). */
export function wellFormedTokenHash(token: string): string | undefined {
  return ACCOUNT_TOKEN_PATTERN.test(token) ? accountTokenHash(token) : undefined;
}
