import { WebhookSecretBox } from '../webhooks/webhook-secret.util';

/** What an `ExpiringSeal` holds: a value that carries its own end. */
export interface Expiring {
  /** Milliseconds since the epoch; past it the token is refused. */
  readonly expiresAt: number;
}

/**
 * A short-lived value sealed into the token that carries it (an emailed link, a cookie):
 * AES-256-GCM under a key derived from the server secret for `purpose` alone, so nothing is
 * stored before the token comes back. `open` answers undefined for a token that is malformed,
 * altered, sealed under another secret or purpose, or past its `expiresAt`.
 */
export class ExpiringSeal<T extends Expiring> {
  private readonly box: WebhookSecretBox;
  private readonly shape: RegExp;

  /** `maxLength`: the longest token `open` reads (base64url characters). */
  constructor(
    serverSecret: string,
    purpose: string,
    private readonly aad: string,
    maxLength: number,
  ) {
    this.box = new WebhookSecretBox(serverSecret, purpose);
    this.shape = new RegExp(`^[A-Za-z0-9_-]{40,${maxLength}}$`);
  }

  seal(value: T): string {
    return this.box.seal(JSON.stringify(value), this.aad, this.aad).toString('base64url');
  }

  open(token: string | undefined, now = Date.now()): T | undefined {
    if (token === undefined || !this.shape.test(token)) return undefined;
    let value: T;
    try {
      value = JSON.parse(this.box.open(Buffer.from(token, 'base64url'), this.aad, this.aad)) as T;
    } catch {
      return undefined;
    }
    return value.expiresAt > now ? value : undefined;
  }
}
