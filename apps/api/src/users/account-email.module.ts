import { Module } from '@nestjs/common';
import { AccountLinks } from './account-links';
import { AccountTokensRepository } from './account-tokens.repository';
import { AfterAnswer } from './after-answer';
import { EmailVerificationService } from './email-verification.service';

/** The account's emailed links (SPEC §8f) that sign-up, invitations and the account routes share. */
@Module({
  providers: [AccountTokensRepository, AccountLinks, AfterAnswer, EmailVerificationService],
  exports: [AccountTokensRepository, AccountLinks, AfterAnswer, EmailVerificationService],
})
export class AccountEmailModule {}
