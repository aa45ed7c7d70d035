import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import { hashPassword, verifyPassword } from '../auth/password.util';
import type { UserPrincipal } from '../auth/principal';
import type { UserCall } from '../auth/caller';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { LOGGER } from '../logging/logger.module';
import { Mailer } from '../mail/mailer';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { auditAccountEvent } from './account-audit';
import { renderAccountMail } from './account-mail';
import { wellFormedTokenHash } from '../database/hashed-token.util';
import { AccountTokensRepository } from './account-tokens.repository';
import { AccountLinks } from './account-links';
import { AfterAnswer } from './after-answer';
import { recordEmailProven } from './email-verification.service';
import { TwoFactorRepository } from './two-factor.repository';
import {
  findUserByEmail,
  findUserWithPassword,
  normaliseEmail,
  replacePasswordHash,
  type UserRow,
} from './users.repository';

export const RESET_LINK_INVALID =
  'This password reset link is not valid: it was already used, it expired (links work for 30 minutes), or it is not one we sent. Ask for a new one.';
export const WRONG_CURRENT_PASSWORD = 'The current password is not correct.';
export const SAME_PASSWORD = 'newPassword must differ from currentPassword.';
export const PASSWORD_CHANGED_MEANWHILE =
  'Your password was changed by another request meanwhile: sign in again with the new one.';

/**
 * Changing and resetting passwords (SPEC §8f). A reset is asked for by address and always
 * answers alike: the lookup, the token and the email happen after the answer, so neither the
 * response nor its timing says whether the address has an account. The token (32 random bytes)
 * travels only in the email's link, in the URL's fragment (never sent to a server, so never in
 * an access log); the database keeps its SHA-256. A new password, either way, ends the person's
 * other sign-in sessions (all of them for a reset), retires their unused reset links, is audited
 * in every organisation they belong to, and is confirmed by email. A used reset link proves the
 * address as a verification link does: the person who reads its mail takes the account over.
 */
@Injectable()
export class PasswordsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: AccountTokensRepository,
    private readonly twoFactor: TwoFactorRepository,
    private readonly signIns: SignInSessionService,
    private readonly limiter: AuthAttemptLimiter,
    private readonly links: AccountLinks,
    private readonly mailer: Mailer,
    private readonly afterAnswer: AfterAnswer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** 429 only for the client address's own limit; otherwise the rest happens after the answer. */
  async requestReset(email: string, ip: string | null): Promise<void> {
    await this.limiter.passwordResetRequest(ip);
    this.afterAnswer.run('password reset email', () => this.sendResetLink(normaliseEmail(email)));
  }

  async confirmReset(token: string, password: string, ip: string | null): Promise<void> {
    const hash = wellFormedTokenHash(token);
    // Checked before the deliberately slow password hash, so a guessed token costs no scrypt.
    if (
      hash === undefined ||
      (await this.tokens.findUsable(this.dataSource, 'password_reset', hash)) === undefined
    )
      throw new DomainError('INVALID_TOKEN', RESET_LINK_INVALID);
    const passwordHash = await hashPassword(password, this.config.accounts.passwordScryptLogN);
    const user = await this.dataSource.transaction(async (tx) => {
      // One statement: of two uses of a link, one wins.
      const user = await this.tokens.useForPerson(tx, 'password_reset', hash);
      if (user === undefined) throw new DomainError('INVALID_TOKEN', RESET_LINK_INVALID);
      await replacePasswordHash(tx, user.id, passwordHash);
      // The link reached this address: it is proven (SPEC §8f).
      const proven = await recordEmailProven(tx, user, 'password_reset', ip);
      // Two-factor set up while the address was unproven was not necessarily the owner's (an
      // account squatted through an invitation): the mailbox's owner gets the account without it.
      if (proven && (await this.twoFactor.remove(tx, user.id)))
        await auditAccountEvent(
          tx,
          user,
          {
            action: 'member.two_factor_disabled',
            metadata: { method: 'totp', via: 'password_reset' },
          },
          ip,
        );
      // Links asked for before (an email change, a verification) were not necessarily the
      // owner's; an undo link sent to a former address stays (it belongs to that mailbox).
      await this.tokens.retireAllBut(tx, user.id, 'email_revert');
      await this.afterNewPassword(tx, user, 'reset', null, ip);
      return user;
    });
    // The link reached the owner here: the sign-in backstop no longer refuses this address (§8b).
    await this.limiter.addressProven(normaliseEmail(user.email), ip, passwordHash);
    this.afterAnswer.run('password changed email', () => this.sendChanged(user, 'reset', ip));
  }

  /**
   * The signed-in person's new password, given the current one. A wrong current password counts
   * as a failed sign-in of the account (the same throttle), so this is no way around it.
   */
  async change(
    { user: signedIn, ip }: UserCall,
    currentPassword: string,
    newPassword: string,
  ): Promise<void> {
    if (currentPassword === newPassword) throw new DomainError('VALIDATION_FAILED', SAME_PASSWORD);
    const user = await this.confirmCurrent(signedIn, currentPassword, ip);
    const passwordHash = await hashPassword(newPassword, this.config.accounts.passwordScryptLogN);
    await this.dataSource.transaction(async (tx) => {
      if (!(await replacePasswordHash(tx, user.id, passwordHash, user.password_hash)))
        throw new DomainError('CONFLICT', PASSWORD_CHANGED_MEANWHILE);
      await this.afterNewPassword(tx, user, 'change', signedIn.signInSessionId, ip);
    });
    // The new password forgot every address known for the old one; the owner proved this one.
    await this.limiter.addressProven(normaliseEmail(user.email), ip, passwordHash);
    this.afterAnswer.run('password changed email', () => this.sendChanged(user, 'change', ip));
  }

  /**
   * The signed-in person's password, checked again before a change to the account (a session
   * alone is not enough): 403 WRONG_PASSWORD, counted as a failed sign-in of the account (the
   * same throttle, so this is no way around it). `alsoCheck` (a second factor) runs inside the
   * throttle: its refusal counts as a failure too.
   */
  async confirmCurrent(
    signedIn: UserPrincipal,
    password: string,
    ip: string | null,
    alsoCheck?: () => Promise<void>,
  ): Promise<UserRow> {
    const user = await findUserWithPassword(this.dataSource.manager, signedIn.userId);
    const succeeded = await this.limiter.beginSignIn(
      normaliseEmail(signedIn.email),
      ip,
      user?.password_hash,
    );
    if (user === undefined) throw DomainError.of('SIGN_IN_REQUIRED');
    if (!(await verifyPassword(password, user.password_hash)))
      throw new DomainError('WRONG_PASSWORD', WRONG_CURRENT_PASSWORD);
    await alsoCheck?.();
    await succeeded();
    return user;
  }

  /** Resolves once the work started after earlier answers (emails) is done; for tests. */
  async settled(): Promise<void> {
    await this.afterAnswer.settled();
  }

  private async afterNewPassword(
    tx: Queryable,
    user: UserRow,
    via: 'change' | 'reset',
    keepSession: string | null,
    ip: string | null,
  ): Promise<void> {
    await this.tokens.retireAll(tx, user.id, 'password_reset');
    const sessionsEnded = await this.signIns.revokeAllOfUser(tx, user.id, keepSession);
    await auditAccountEvent(
      tx,
      user,
      { action: 'member.password_changed', metadata: { via, sessionsEnded } },
      ip,
    );
  }

  private async sendResetLink(email: string): Promise<void> {
    const user = await findUserByEmail(this.dataSource.manager, email);
    if (user === undefined) return;
    if (!(await this.limiter.passwordResetEmail(email))) {
      this.logger.warn(
        { userId: user.id },
        'password reset: this account asked for more emails than its limit allows, none sent',
      );
      return;
    }
    await this.links.send(this.dataSource.manager, 'passwordReset', user);
  }

  private async sendChanged(
    user: UserRow,
    via: 'change' | 'reset',
    ip: string | null,
  ): Promise<void> {
    await this.mailer.send(
      renderAccountMail('passwordChanged', user.email, {
        name: user.name,
        email: user.email,
        how: via === 'reset' ? 'reset with an emailed link' : 'changed',
        at: new Date().toISOString().slice(0, 16).replace('T', ' '),
        address: ip,
        ended:
          via === 'reset'
            ? 'Every device that was signed in has been signed out.'
            : 'Your other devices have been signed out.',
        resetUrl: `${this.config.dashboardUrl}/reset-password`,
      }),
    );
  }
}
