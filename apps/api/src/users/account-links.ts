import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { Mailer } from '../mail/mailer';
import { renderAccountMail } from './account-mail';
import { AccountTokensRepository } from './account-tokens.repository';

/** The emailed single-use links of SPEC §8f: what each is for, how long it works, its page. */
const LINKS = {
  passwordReset: { purpose: 'password_reset', page: 'reset-password' },
  emailVerification: { purpose: 'email_verification', page: 'verify-email' },
} as const;

/**
 * Emails a person a new single-use link (`<DASHBOARD_URL>/<page>#<token>`): the token is made and
 * its hash recorded first, so a link that arrives always works.
 */
@Injectable()
export class AccountLinks {
  constructor(
    private readonly tokens: AccountTokensRepository,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(
    db: Parameters<AccountTokensRepository['issue']>[0],
    link: keyof typeof LINKS,
    user: { id: string; name: string; email: string },
  ): Promise<void> {
    const { purpose, page } = LINKS[link];
    const { passwordResetTtlMs, emailVerificationTtlMs } = this.config.accounts;
    const token = await this.tokens.issue(db, {
      userId: user.id,
      purpose,
      email: user.email,
      ttlMs: link === 'passwordReset' ? passwordResetTtlMs : emailVerificationTtlMs,
    });
    await this.mailer.send(
      renderAccountMail(link, user.email, {
        name: user.name,
        email: user.email,
        url: `${this.config.dashboardUrl}/${page}#${token}`,
      }),
    );
  }
}
