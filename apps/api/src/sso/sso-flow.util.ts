import { type Expiring, ExpiringSeal } from '../auth/expiring-seal.util';

/** How long a started single sign-on may take at the provider (its cookie's life). */
export const SSO_FLOW_MINUTES = 10;

/**
 * What the browser that started a single sign-on must bring back to finish it: the
 * organisation, the `state` and `nonce` sent to the provider and the PKCE verifier — sealed
 * (AES-256-GCM under a key derived from the server secret for this purpose alone) into an
 * HttpOnly cookie, so only that browser can finish it, and nothing is stored before it does.
 */
export interface SsoFlow extends Expiring {
  readonly organisationId: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The cookie's value: the flow, or undefined when it was altered, sealed under another secret, or expired. */
export class SsoFlowSeal extends ExpiringSeal<SsoFlow> {
  constructor(serverSecret: string) {
    super(serverSecret, 'sso-flows/v1', 'sso-flow', 2000);
  }
}
