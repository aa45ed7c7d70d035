import { WebhookSecretBox } from '../webhooks/webhook-secret.util';

/** How long an emailed sign-up link works. */
export const SIGN_UP_LINK_HOURS = 24;

/**
 * A sign-up waiting for its address to be proven (SPEC §8f, sign-up without enumeration): what
 * the form gave, the password already hashed. Sealed (AES-256-GCM under a key derived from the
 * server secret for this purpose alone) into the emailed link itself, so nothing is stored
 * before the link is used and an abandoned sign-up leaves nothing behind.
 */
export interface PendingSignUp {
  readonly email: string;
  readonly name: string;
  readonly organisationName: string;
  readonly passwordHash: string;
  /** Milliseconds since the epoch; past it the link is refused. */
  readonly expiresAt: number;
}

const AAD = 'sign-up-link';

export class SignUpLinkSeal {
  private readonly box: WebhookSecretBox;

  constructor(serverSecret: string) {
    this.box = new WebhookSecretBox(serverSecret, 'sign-up-links/v1');
  }

  seal(pending: PendingSignUp): string {
    return this.box.seal(JSON.stringify(pending), AAD, AAD).toString('base64url');
  }

  /** The sign-up, or undefined when the token was altered, sealed under another secret, or expired. */
  open(token: string, now = Date.now()): PendingSignUp | undefined {
    if (!/^[A-Za-z0-9_-]{40,4000}$/.test(token)) return undefined;
    let pending: PendingSignUp;
    try {
      pending = JSON.parse(
        this.box.open(Buffer.from(token, 'base64url'), AAD, AAD),
      ) as PendingSignUp;
    } catch {
      return undefined;
    }
    return pending.expiresAt > now ? pending : undefined;
  }
}
