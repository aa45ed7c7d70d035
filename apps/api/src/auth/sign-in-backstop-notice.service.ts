import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { Mailer } from '../mail/mailer';
import {
  AuthAttemptLimiter,
  type BackstopSpent,
} from '../rate-limits/auth-attempt-limiter.service';
import { describeInterval, renderAccountMail } from '../users/account-mail';
import { AfterAnswer } from '../users/after-answer';
import { findUserByEmail } from '../users/users.repository';
import { isPasswordHash } from './password.util';

/** `2026-11-28T05:10:42.123Z` → `2026-11-28 05:10`, as the account emails write times (UTC). */
const minute = (at: Date) => at.toISOString().slice(0, 16).replace('T', ' ');

/**
 * Emails an account's owner when its sign-in backstop refuses a sign-in (SPEC §8b): what
 * happened, until when, and what to do — wait, or use a password reset link, which makes the
 * address it is used from known. At most once per backstop window per account (the limiter
 * decides); after the answer, so neither the 429 nor its timing says whether the account exists.
 * An account without a password (made by single sign-on) is not emailed: it has none to guess.
 */
@Injectable()
export class SignInBackstopNotice {
  constructor(
    private readonly dataSource: DataSource,
    private readonly mailer: Mailer,
    private readonly afterAnswer: AfterAnswer,
    limiter: AuthAttemptLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    limiter.whenBackstopSpent((spent) =>
      this.afterAnswer.run('sign-in backstop email', () => this.tell(spent)),
    );
  }

  private async tell(spent: BackstopSpent): Promise<void> {
    const user = await findUserByEmail(this.dataSource.manager, spent.email);
    if (user === undefined || !isPasswordHash(user.password_hash)) return;
    const { signIn } = this.config.rateLimits;
    const now = Date.now();
    await this.mailer.send(
      renderAccountMail('signInBackstopSpent', user.email, {
        name: user.name,
        email: user.email,
        address: spent.address,
        at: minute(new Date(now)),
        until: minute(new Date(now + spent.retryAfterMs + 59_999)),
        failures: String(signIn.accountBackstopFailures),
        window: describeInterval(signIn.accountBackstopWindowSeconds * 1000),
        resetUrl: `${this.config.dashboardUrl}/reset-password`,
      }),
    );
  }
}
