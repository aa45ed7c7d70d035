import { randomBytes } from 'node:crypto';
import { authenticator } from 'otplib';
import { HashAlgorithms } from 'otplib/core';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as authenticator apps make them,
 * through otplib: HMAC-SHA-1, 30-second steps, 6 digits — the parameters every app accepts.
 * totp.util.spec.ts holds it to the RFCs' own test vectors.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code is still taken for (clock drift, a code typed at the turn). */
export const TOTP_WINDOW = 1;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const totp = authenticator.clone({
  algorithm: HashAlgorithms.SHA1,
  digits: TOTP_DIGITS,
  step: TOTP_PERIOD_SECONDS,
  window: TOTP_WINDOW,
});

/** The time step a moment falls in (RFC 6238's T, from the Unix epoch). */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code an authenticator with this base32 key shows at a moment. */
export function totpCode(base32Key: string, atMs: number): string {
  return totp.clone({ epoch: atMs }).generate(base32Key);
}

/**
 * The step whose code this is, within TOTP_WINDOW steps of `atMs`, or undefined; the caller
 * refuses a step it has already accepted (replay). otplib compares codes with `===`, not in
 * constant time: what a timing could tell is worth nothing against §8b's sign-in throttle, which
 * counts every wrong code.
 */
export function matchTotp(base32Key: string, code: string, atMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp.clone({ epoch: atMs }).checkDelta(code, base32Key);
  return delta === null ? undefined : totpStep(atMs) + delta;
}

/**
 * A new key: 160 random bits (RFC 4226's recommended length), as 32 base32 characters each drawn
 * from 5 random bits. Not otplib's generateSecret: 12.x turns its random bytes into an 'ascii'
 * string before encoding them, which clears each byte's high bit (140 bits for 20 bytes).
 */
export function newTotpSecret(): string {
  return Array.from(randomBytes(32), (byte) => BASE32_ALPHABET[byte & 31]).join('');
}

/** The otpauth:// URI an authenticator app reads from a QR code (Key Uri Format). */
export function otpauthUri(issuer: string, account: string, base32Key: string): string {
  return totp.keyuri(account, issuer, base32Key);
}
