import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError, type MemberActor } from '@interlock/domain';
import { hashPassword, verifyPassword } from '../auth/password.util';
import type { UserPrincipal } from '../auth/principal';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { LOGGER } from '../logging/logger.module';
import { Mailer } from '../mail/mailer';
import { organisationsOfUser } from '../members/memberships.repository';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { renderAccountMail } from './account-mail';
import { AccountTokensRepository } from './account-tokens.repository';
import {
  findUserByEmail,
  findUserWithPassword,
  normaliseEmail,
  replacePasswordHash,
  type UserRow,
} from './users.repository';

/** 32 random bytes, base64url: 43 characters (the log's redaction recognises the shape). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const RESET_LINK_INVALID =
  'This password reset link is not valid: it was already used, it expired (links work for 30 minutes), or it is not one we sent. Ask for a new one.';
export const WRONG_CURRENT_PASSWORD = 'The current password is not correct.';
export const SAME_PASSWORD = 'newPassword must differ from currentPassword.';
export const PASSWORD_CHANGED_MEANWHILE =
  'Your password was changed by another request meanwhile: sign in again with the new one.';

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Changing and resetting passwords (SPEC §8f). A reset is asked for by address and always
 * answers alike: the lookup, the token and the email happen after the answer, so neither the
 * response nor its timing says whether the address has an account. The token (32 random bytes)
 * travels only in the email's link, in the URL's fragment (never sent to a server, so never in
 * an access log); the database keeps its SHA-256. A new password, either way, ends the person's
 * other sign-in sessions (all of them for a reset), retires their unused reset links, is audited
 * in every organisation they belong to, and is confirmed by email.
 */
@Injectable()
export class PasswordsService implements BeforeApplicationShutdown {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: AccountTokensRepository,
    private readonly signIns: SignInSessionService,
    private readonly limiter: AuthAttemptLimiter,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** 429 only for the client address's own limit; otherwise the rest happens after the answer. */
  async requestReset(email: string, ip: string | null): Promise<void> {
    await this.limiter.passwordResetRequest(ip);
    this.afterAnswer('password reset email', () => this.sendResetLink(normaliseEmail(email)));
  }

  async confirmReset(token: string, password: string, ip: string | null): Promise<void> {
    const hash = TOKEN_PATTERN.test(token) ? tokenHash(token) : undefined;
    // Checked before the deliberately slow password hash, so a guessed token costs no scrypt.
    if (
      hash === undefined ||
      (await this.tokens.findUsable(this.dataSource, 'password_reset', hash)) === undefined
    )
      throw new DomainError('INVALID_TOKEN', RESET_LINK_INVALID);
    const passwordHash = await hashPassword(password, this.config.accounts.passwordScryptLogN);
    const user = await this.dataSource.transaction(async (tx) => {
      // One statement: of two uses of a link, one wins.
      const used = await this.tokens.use(tx, 'password_reset', hash);
      const user = used && (await findUserWithPassword(tx, used.user_id));
      if (used === undefined || user === undefined || user.email !== used.email)
        throw new DomainError('INVALID_TOKEN', RESET_LINK_INVALID);
      await replacePasswordHash(tx, user.id, passwordHash);
      await this.afterNewPassword(tx, user, 'reset', null, ip);
      return user;
    });
    this.afterAnswer('password changed email', () => this.sendChanged(user, 'reset', ip));
  }

  /**
   * The signed-in person's new password, given the current one. A wrong current password counts
   * as a failed sign-in of the account (the same throttle), so this is no way around it.
   */
  async change(
    signedIn: UserPrincipal,
    currentPassword: string,
    newPassword: string,
    ip: string | null,
  ): Promise<void> {
    if (currentPassword === newPassword) throw new DomainError('VALIDATION_FAILED', SAME_PASSWORD);
    const succeeded = await this.limiter.beginSignIn(normaliseEmail(signedIn.email), ip);
    const user = await findUserWithPassword(this.dataSource.manager, signedIn.userId);
    if (user === undefined) throw DomainError.of('SIGN_IN_REQUIRED');
    if (!(await verifyPassword(currentPassword, user.password_hash)))
      throw new DomainError('WRONG_PASSWORD', WRONG_CURRENT_PASSWORD);
    await succeeded();
    const passwordHash = await hashPassword(newPassword, this.config.accounts.passwordScryptLogN);
    await this.dataSource.transaction(async (tx) => {
      if (!(await replacePasswordHash(tx, user.id, passwordHash, user.password_hash)))
        throw new DomainError('CONFLICT', PASSWORD_CHANGED_MEANWHILE);
      await this.afterNewPassword(tx, user, 'change', signedIn.signInSessionId, ip);
    });
    this.afterAnswer('password changed email', () => this.sendChanged(user, 'change', ip));
  }

  /** Resolves once the work started after earlier answers (emails) is done; for shutdown and tests. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
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
    const actor: MemberActor = { type: 'member', id: user.id, name: user.name };
    // In a fixed order (by organisation id), so two such writes never wait on each other's heads.
    const organisations = (await organisationsOfUser(tx, user.id)).sort((a, b) =>
      a.id < b.id ? -1 : 1,
    );
    for (const organisation of organisations) {
      await writeAuditEntry(tx, {
        organisationId: organisation.id,
        action: 'member.password_changed',
        actor,
        target: { type: 'user', id: user.id, name: user.name },
        metadata: { via, sessionsEnded },
        ipAddress: ip,
      });
    }
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
    const token = randomBytes(32).toString('base64url');
    await this.tokens.insert(this.dataSource.manager, {
      id: randomUUID(),
      userId: user.id,
      purpose: 'password_reset',
      tokenHash: tokenHash(token),
      email: user.email,
      ttlMs: this.config.accounts.passwordResetTtlMs,
    });
    await this.mailer.send(
      renderAccountMail('passwordReset', user.email, {
        name: user.name,
        email: user.email,
        url: `${this.config.dashboardUrl}/reset-password#${token}`,
      }),
    );
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

  /** Runs work after the response, logging (never throwing) a failure; shutdown waits for it. */
  private afterAnswer(what: string, work: () => Promise<void>): void {
    const run = work().catch((error: unknown) =>
      this.logger.error({ err: error }, `${what} failed`),
    );
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }
}
