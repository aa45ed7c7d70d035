import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import { hashPassword } from '../auth/password.util';
import type { UserCall } from '../auth/caller';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { Mailer } from '../mail/mailer';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { auditAccountEvent } from './account-audit';
import { renderAccountMail } from './account-mail';
import { wellFormedTokenHash } from '../database/hashed-token.util';
import { AccountTokensRepository, type AccountTokenPurpose } from './account-tokens.repository';
import { AfterAnswer } from './after-answer';
import { EmailVerificationService } from './email-verification.service';
import { PasswordsService } from './passwords.service';
import {
  findUserByEmail,
  findUserWithPassword,
  normaliseEmail,
  replaceEmail,
  replacePasswordHash,
} from './users.repository';

/** How long the link to the new address works, and the old address's undo link (SPEC §8f). */
export const EMAIL_CHANGE_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_REVERT_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const SAME_EMAIL = 'email is already your address.';
export const EMAIL_CHANGE_LINK_INVALID =
  'This email change link is not valid: it was already used, it expired (links work for 24 hours), a later change replaced it, or it is not one we sent. Ask for the change again in Settings → Profile.';
export const EMAIL_TAKEN_MEANWHILE =
  'This address belongs to another Interlock account now: your address was not changed.';
export const EMAIL_REVERT_LINK_INVALID =
  'This link is not valid: it was already used, it expired (links work for 7 days), or it is not one we sent. If someone else controls your account, reset your password, or ask your organisation’s owner.';
export const EMAIL_REVERT_TAKEN =
  'Your former address belongs to another Interlock account now, so it cannot be restored: ask your organisation’s owner.';

/** Every link a person's address change makes moot: they were sent to, or name, the old address. */
const LINKS_OF_AN_ADDRESS: AccountTokenPurpose[] = [
  'password_reset',
  'email_verification',
  'email_change',
];

interface Person {
  id: string;
  name: string;
  email: string;
}

/**
 * Changing a person's email address (SPEC §8f). The signed-in person asks with their password;
 * the new address gets a single-use link (24 hours) and nothing changes until it is used, so
 * the new address is proven before it takes effect. Whether the new address already has an
 * account is told only to that address, after the answer (the answer and its timing are the
 * same either way). Once changed, the old address is told, with a link (7 days, single use)
 * that undoes the change, sets a new password and ends every sign-in session: whoever took a
 * session and a password cannot move the account away from its owner's mailbox silently.
 */
@Injectable()
export class EmailChangeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: AccountTokensRepository,
    private readonly passwords: PasswordsService,
    private readonly verification: EmailVerificationService,
    private readonly signIns: SignInSessionService,
    private readonly limiter: AuthAttemptLimiter,
    private readonly mailer: Mailer,
    private readonly afterAnswer: AfterAnswer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The signed-in person asks to move their account to `newEmail`: 403 EMAIL_NOT_VERIFIED where
   * verification is required and their address is unproven, 403 WRONG_PASSWORD (counted
   * as a failed sign-in), 400 for their own address, 429 past the person's hourly emails. The
   * lookup and the email happen after the answer. A new request retires the earlier links.
   */
  async request(
    { user: signedIn, ip }: UserCall,
    newEmail: string,
    password: string,
  ): Promise<{ email: string }> {
    const email = normaliseEmail(newEmail);
    await this.verification.assertVerified(this.dataSource.manager, signedIn.userId, 'changeEmail');
    const user = await this.passwords.confirmCurrent(signedIn, password, ip);
    if (email === user.email) throw new DomainError('VALIDATION_FAILED', SAME_EMAIL);
    await this.limiter.verificationEmail(user.id);
    this.afterAnswer.run('email change email', () => this.sendChangeLink(user, email));
    return { email };
  }

  /**
   * Uses the new address's link: the address changes and is verified, the person's links sent
   * to the old one are retired, the change is audited, and the old address is told (with the
   * undo link). 400 INVALID_TOKEN for a link that is unknown, used, expired, malformed or
   * replaced; 409 when the address was taken by another account meanwhile.
   */
  async confirm(token: string, ip: string | null): Promise<void> {
    const hash = wellFormedTokenHash(token);
    if (hash === undefined) throw new DomainError('INVALID_TOKEN', EMAIL_CHANGE_LINK_INVALID);
    const done = await this.dataSource.transaction(async (tx) => {
      const used = await this.tokens.use(tx, 'email_change', hash);
      const user = used && (await findUserWithPassword(tx, used.user_id));
      if (used === undefined || user === undefined)
        throw new DomainError('INVALID_TOKEN', EMAIL_CHANGE_LINK_INVALID);
      if (!(await replaceEmail(tx, user.id, used.email)))
        throw new DomainError('CONFLICT', EMAIL_TAKEN_MEANWHILE);
      for (const purpose of LINKS_OF_AN_ADDRESS) await this.tokens.retireAll(tx, user.id, purpose);
      const undo = await this.tokens.issue(tx, {
        userId: user.id,
        purpose: 'email_revert',
        email: user.email,
        ttlMs: EMAIL_REVERT_LINK_TTL_MS,
      });
      await auditAccountEvent(
        tx,
        user,
        {
          action: 'member.email_changed',
          metadata: { from: user.email, to: used.email, via: 'link', sessionsEnded: 0 },
        },
        ip,
      );
      return { user, to: used.email, undo };
    });
    this.afterAnswer.run('email changed email', () =>
      this.mailer
        .send(
          renderAccountMail('emailChanged', done.user.email, {
            name: done.user.name,
            email: done.user.email,
            newEmail: done.to,
            at: new Date().toISOString().slice(0, 16).replace('T', ' '),
            address: ip,
            url: `${this.config.dashboardUrl}/undo-email-change#${done.undo}`,
          }),
        )
        .then(() => undefined),
    );
  }

  /**
   * The old address's undo link: the account gets that address back (verified: the link reached
   * it) and a new password, every sign-in session ends and every emailed link is retired.
   * 400 INVALID_TOKEN for a bad link; 409 when the old address has another account now.
   */
  async undo(token: string, newPassword: string, ip: string | null): Promise<void> {
    const hash = wellFormedTokenHash(token);
    // Checked before the deliberately slow password hash, so a guessed token costs no scrypt.
    if (
      hash === undefined ||
      (await this.tokens.findUsable(this.dataSource, 'email_revert', hash)) === undefined
    )
      throw new DomainError('INVALID_TOKEN', EMAIL_REVERT_LINK_INVALID);
    const passwordHash = await hashPassword(newPassword, this.config.accounts.passwordScryptLogN);
    await this.dataSource.transaction(async (tx) => {
      const used = await this.tokens.use(tx, 'email_revert', hash);
      const user = used && (await findUserWithPassword(tx, used.user_id));
      if (used === undefined || user === undefined)
        throw new DomainError('INVALID_TOKEN', EMAIL_REVERT_LINK_INVALID);
      if (!(await replaceEmail(tx, user.id, used.email)))
        throw new DomainError('CONFLICT', EMAIL_REVERT_TAKEN);
      for (const purpose of [...LINKS_OF_AN_ADDRESS, 'email_revert'] as const)
        await this.tokens.retireAll(tx, user.id, purpose);
      await replacePasswordHash(tx, user.id, passwordHash);
      const sessionsEnded = await this.signIns.revokeAllOfUser(tx, user.id, null);
      await auditAccountEvent(
        tx,
        user,
        {
          action: 'member.email_changed',
          metadata: { from: user.email, to: used.email, via: 'undo', sessionsEnded },
        },
        ip,
      );
      await auditAccountEvent(
        tx,
        user,
        { action: 'member.password_changed', metadata: { via: 'reset', sessionsEnded } },
        ip,
      );
    });
  }

  /** After the answer: the link, or — when the address has an account — a note saying so. */
  private async sendChangeLink(user: Person, email: string): Promise<void> {
    // The latest request counts: its earlier links stop working.
    await this.tokens.retireAll(this.dataSource.manager, user.id, 'email_change');
    if ((await findUserByEmail(this.dataSource.manager, email)) !== undefined) {
      await this.mailer.send(
        renderAccountMail('emailChangeAddressTaken', email, { email, oldEmail: user.email }),
      );
      return;
    }
    const token = await this.tokens.issue(this.dataSource.manager, {
      userId: user.id,
      purpose: 'email_change',
      email,
      ttlMs: EMAIL_CHANGE_LINK_TTL_MS,
    });
    await this.mailer.send(
      renderAccountMail('emailChangeLink', email, {
        name: user.name,
        email,
        oldEmail: user.email,
        url: `${this.config.dashboardUrl}/confirm-email-change#${token}`,
      }),
    );
  }
}
