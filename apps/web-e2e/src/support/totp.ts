import { authenticator } from 'otplib';

/**
 * What an authenticator app shows for a base32 key (RFC 6238: HMAC-SHA-1, 30 s, 6 digits), so a
 * browser test can type the code a person would. otplib's defaults are those parameters; the
 * API's totp.util.spec.ts holds otplib to the RFCs' test vectors.
 */
export function authenticatorCode(base32Key: string, atMs = Date.now()): string {
  return authenticator.clone({ epoch: atMs }).generate(base32Key);
}
