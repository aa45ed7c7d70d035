import { WebhookSecretBox } from '../webhooks/webhook-secret.util';

/** How long a started single sign-on may take at the provider (its cookie's life). */
export const SSO_FLOW_MINUTES = 10;

/**
 * What the browser that started a single sign-on must bring back to finish it: the
 * organisation, the `state` and `nonce` sent to the provider and the PKCE verifier — sealed
 * (AES-256-GCM under a key derived from the server secret for this purpose alone) into an
 * HttpOnly cookie, so only that browser can finish it, and nothing is stored before it does.
 */
export interface SsoFlow {
  readonly organisationId: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  /** Milliseconds since the epoch; past it the flow is refused. */
  readonly expiresAt: number;
}

const AAD = 'sso-flow';

export class SsoFlowSeal {
  private readonly box: WebhookSecretBox;

  constructor(serverSecret: string) {
    this.box = new WebhookSecretBox(serverSecret, 'sso-flows/v1');
  }

  seal(flow: SsoFlow): string {
    return this.box.seal(JSON.stringify(flow), AAD, AAD).toString('base64url');
  }

  /** The flow, or undefined when the value was altered, sealed under another secret, or expired. */
  open(sealed: string | undefined, now = Date.now()): SsoFlow | undefined {
    if (sealed === undefined || !/^[A-Za-z0-9_-]{40,2000}$/.test(sealed)) return undefined;
    let flow: SsoFlow;
    try {
      flow = JSON.parse(this.box.open(Buffer.from(sealed, 'base64url'), AAD, AAD)) as SsoFlow;
    } catch {
      return undefined;
    }
    return flow.expiresAt > now ? flow : undefined;
  }
}
