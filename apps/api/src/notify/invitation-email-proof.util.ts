import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The part of an emailed invitation link that proves the address (SPEC §8f): an HMAC-SHA-256 of
 * the invitation's id and address under a key derived from the server secret for this purpose
 * alone, base64url (43 characters). It travels only in the email's link, in the URL's fragment
 * (`<DASHBOARD_URL>/invitations/<token>#<proof>`): the inviter, who is shown the token, never
 * sees it, so a link that carries it was opened from that mailbox. Nothing is stored.
 */
export class InvitationEmailProof {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(
      hkdfSync('sha256', serverSecret, 'interlock', 'invitation-email-proofs/v1', 32),
    );
  }

  of(invitationId: string, email: string): string {
    return createHmac('sha256', this.key)
      .update(`${invitationId}\n${email.trim().toLowerCase()}`)
      .digest('base64url');
  }

  /** Whether `proof` is this invitation's, for this address (in constant time). */
  matches(proof: string, invitationId: string, email: string): boolean {
    const expected = Buffer.from(this.of(invitationId, email));
    const given = Buffer.from(proof);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
