import { Module } from '@nestjs/common';
import { OrganisationModule } from '../organisation/organisation.module';
import { AccountController } from '../users/account.controller';
import { AccountEmailModule } from '../users/account-email.module';
import { PasswordsService } from '../users/passwords.service';
import { EmailChangeService } from '../users/email-change.service';
import { ProfileService } from '../users/profile.service';
import { AccountSessionsService } from '../users/account-sessions.service';
import { TwoFactorController } from '../users/two-factor.controller';
import { TwoFactorRepository } from '../users/two-factor.repository';
import { TwoFactorService } from '../users/two-factor.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { SignInBackstopNotice } from './sign-in-backstop-notice.service';
import { WhoamiController } from './whoami.controller';

/** Sign-up, sign-in, sign-out, passwords, the signed-in person's account, and a key's view of itself. */
@Module({
  imports: [OrganisationModule, AccountEmailModule],
  controllers: [AuthController, AccountController, TwoFactorController, WhoamiController],
  providers: [
    AuthService,
    PasswordsService,
    EmailChangeService,
    ProfileService,
    AccountSessionsService,
    TwoFactorService,
    TwoFactorRepository,
    SignInBackstopNotice,
  ],
})
export class AuthRoutesModule {}
