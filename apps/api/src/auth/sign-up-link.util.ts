import { type Expiring, ExpiringSeal } from './expiring-seal.util';

/** How long an emailed sign-up link works. */
export const SIGN_UP_LINK_HOURS = 24;

/**
 * A sign-up waiting for its address to be proven (SPEC §8f, sign-up without enumeration): what
 * the form gave, the password already hashed. Sealed (AES-256-GCM under a key derived from the
 * server secret for this purpose alone) into the emailed link itself, so nothing is stored
 * before the link is used and an abandoned sign-up leaves nothing behind.
 */
export interface PendingSignUp extends Expiring {
  readonly email: string;
  readonly name: string;
  readonly organisationName: string;
  readonly passwordHash: string;
}

/** The emailed link's token: the sign-up, or undefined when it was altered, sealed under another secret, or expired. */
export class SignUpLinkSeal extends ExpiringSeal<PendingSignUp> {
  constructor(serverSecret: string) {
    super(serverSecret, 'sign-up-links/v1', 'sign-up-link', 4000);
  }
}
