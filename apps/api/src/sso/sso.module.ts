import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { OrganisationModule } from '../organisation/organisation.module';
import { RolesModule } from '../roles/roles.module';
import { SsoClients } from './sso-clients';
import { SsoSecrets } from './sso-secrets';
import { SsoSettingsService } from './sso-settings.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoSettingsController, SsoSignInController } from './sso.controller';
import { SsoRepository } from './sso.repository';

/** Single sign-on with OpenID Connect (SPEC §8f, issue 33 §3). */
@Module({
  imports: [OrganisationModule, RolesModule],
  controllers: [SsoSignInController, SsoSettingsController],
  providers: [
    SsoRepository,
    // Stateless: a single sign-on of an invited person uses their invitation.
    InvitationsRepository,
    SsoSignInService,
    SsoSettingsService,
    {
      provide: SsoClients,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SsoClients(config.nodeEnv !== 'production'),
    },
    {
      provide: SsoSecrets,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SsoSecrets(config.apiKeyPepper),
    },
  ],
})
export class SsoModule {}
