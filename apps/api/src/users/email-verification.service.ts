import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import type { UserPrincipal } from '../auth/principal';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { auditAccountEvent } from './account-audit';
import { wellFormedTokenHash } from '../database/hashed-token.util';
import { AccountTokensRepository } from './account-tokens.repository';
import { AccountLinks } from './account-links';
import { AfterAnswer } from './after-answer';
import { findUser, markEmailVerified } from './users.repository';

export const VERIFICATION_LINK_INVALID =
  'This verification link is not valid: it was already used, it expired (links work for 24 hours), or it is not one we sent. Sign in to ask for a new one.';
export const ALREADY_VERIFIED = 'Your email address is already verified.';
export const VERIFY_TO_JOIN =
  'Verify your email address before accepting an invitation: open the link we emailed you, or ask for a new one in the dashboard.';
export const VERIFY_TO_ENROL_TWO_FACTOR =
  'Verify your email address before turning on two-factor sign-in: open the link we emailed you, or ask for a new one in Settings → Security.';
export const VERIFY_TO_CHANGE_EMAIL =
  'Verify your email address before changing it: open the link we emailed you, or ask for a new one in Settings → Security.';

/** What waits for a verified address where `EMAIL_VERIFICATION` is `required` (SPEC §8f), and its 403's text. */
const WAITS_FOR_VERIFICATION = {
  join: VERIFY_TO_JOIN,
  twoFactor: VERIFY_TO_ENROL_TWO_FACTOR,
  changeEmail: VERIFY_TO_CHANGE_EMAIL,
} as const;

/**
 * A used link proved the person's current address: it is verified, audited in each of their
 * organisations (`member.email_verified`), unless it already was; whether it was unproven until now.
 */
export async function recordEmailProven(
  tx: Queryable,
  user: { id: string; name: string; email: string },
  via:
    'verification_link' | 'password_reset' | 'sign_up_link' | 'invitation_link' | 'single_sign_on',
  ip: string | null,
): Promise<boolean> {
  const proven = await markEmailVerified(tx, user.id, user.email);
  if (proven)
    await auditAccountEvent(
      tx,
      user,
      { action: 'member.email_verified', metadata: { email: user.email, via } },
      ip,
    );
  return proven;
}

/**
 * Verified email addresses (SPEC §8f). A new account gets a link (32 random bytes in the URL's
 * fragment, kept as its SHA-256, single-use, 24 hours) at the address it gave; using it proves
 * the address. A password reset link proves it too (PasswordsService). Where `EMAIL_VERIFICATION`
 * is `required`, joining another organisation by invitation and receiving notifications wait for
 * it; the account's own organisation works at once. A link names the address it was sent to, so
 * it proves nothing once the account has another.
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: AccountTokensRepository,
    private readonly limiter: AuthAttemptLimiter,
    private readonly links: AccountLinks,
    private readonly afterAnswer: AfterAnswer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A new account's first link, sent after the answer (called once its transaction committed)
   * where verification is required; where it is optional nobody is emailed unasked (Settings →
   * Security sends a link on request).
   */
  newAccount(user: { id: string; name: string; email: string }): void {
    if (this.config.accounts.emailVerification === 'required') this.sendLink(user);
  }

  private sendLink(user: { id: string; name: string; email: string }): void {
    this.afterAnswer.run('email verification email', () => this.send(user));
  }

  /** The signed-in person asks for a new link: 409 when verified already, 429 past their limit. */
  async resend(signedIn: UserPrincipal): Promise<void> {
    const user = await findUser(this.dataSource.manager, signedIn.userId);
    if (user === undefined) throw DomainError.of('SIGN_IN_REQUIRED');
    if (user.email_verified_at !== null) throw new DomainError('CONFLICT', ALREADY_VERIFIED);
    await this.limiter.verificationEmail(user.id);
    this.sendLink(user);
  }

  /**
   * Uses a link: the address is verified (audited in each of the person's organisations) and
   * their other unused links retired. 400 `INVALID_TOKEN` for an unknown, used, expired or
   * malformed token, or one sent to an address the account no longer has.
   */
  async verify(token: string, ip: string | null): Promise<void> {
    const hash = wellFormedTokenHash(token);
    if (hash === undefined) throw new DomainError('INVALID_TOKEN', VERIFICATION_LINK_INVALID);
    await this.dataSource.transaction(async (tx) => {
      // One statement: of two uses of a link, one wins.
      const user = await this.tokens.useForPerson(tx, 'email_verification', hash);
      if (user === undefined) throw new DomainError('INVALID_TOKEN', VERIFICATION_LINK_INVALID);
      await this.tokens.retireAll(tx, user.id, 'email_verification');
      await recordEmailProven(tx, user, 'verification_link', ip);
    });
  }

  /**
   * An invitation email's link proved the address (SPEC §8f), inside the accept's or join's
   * transaction: verified and audited as a verification link would (`via: "invitation_link"`),
   * and the person's verification links retired.
   */
  async provenByInvitation(
    tx: Queryable,
    user: { id: string; name: string; email: string },
    ip: string | null,
  ): Promise<void> {
    await this.tokens.retireAll(tx, user.id, 'email_verification');
    await recordEmailProven(tx, user, 'invitation_link', ip);
  }

  /**
   * 403 `EMAIL_NOT_VERIFIED` where verification is required and this person's address is
   * unproven: joining another organisation, and (defence in depth) turning two-factor on or
   * moving the account to another address, which would make an unproven account harder for the
   * address's owner to take over, or launder it into a proven one. Where verification is
   * optional nothing waits for it (the server may have no way to prove an address).
   */
  async assertVerified(
    db: Queryable,
    userId: string,
    toDo: keyof typeof WAITS_FOR_VERIFICATION,
  ): Promise<void> {
    if (this.config.accounts.emailVerification !== 'required') return;
    const user = await findUser(db, userId);
    if (user === undefined) throw DomainError.of('SIGN_IN_REQUIRED');
    if (user.email_verified_at === null)
      throw new DomainError('EMAIL_NOT_VERIFIED', WAITS_FOR_VERIFICATION[toDo]);
  }

  private async send(user: { id: string; name: string; email: string }): Promise<void> {
    await this.links.send(this.dataSource.manager, 'emailVerification', user);
  }
}
