import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's `X-Slack-Request-Timestamp` may be from now (Slack's advice: five minutes). */
export const SLACK_SIGNATURE_WINDOW_SECONDS = 300;

/** Slack's v0 signature of a request: `v0=` and the hex HMAC-SHA-256 of `v0:<timestamp>:<raw body>`. */
export function slackSignature(signingSecret: string, timestamp: string, body: Buffer): string {
  const hmac = createHmac('sha256', signingSecret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(body);
  return `v0=${hmac.digest('hex')}`;
}

export type SlackSignatureCheck = 'ok' | 'missing' | 'stale' | 'mismatch';

/**
 * Whether a request came from Slack: its timestamp (whole seconds) is within the window of now,
 * so a recorded request cannot be replayed later, and its signature over the exact bytes
 * received matches (compared in constant time).
 */
export function checkSlackSignature(
  signingSecret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  body: Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): SlackSignatureCheck {
  if (timestamp === undefined || signature === undefined) return 'missing';
  if (!/^\d{1,12}$/.test(timestamp)) return 'stale';
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_SIGNATURE_WINDOW_SECONDS) return 'stale';
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}
