import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { AccountEmailModule } from '../users/account-email.module';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { OrganisationModule } from '../organisation/organisation.module';
import { RolesModule } from '../roles/roles.module';
import { SsoClients } from './sso-clients';
import { SsoDomainDns } from './sso-domain-dns';
import { SsoDomainRecheck } from './sso-domain-recheck.service';
import { SsoDomainRecheckJob } from './sso-domain-recheck.job';
import { SsoLinksService } from './sso-links.service';
import { periodicJobProvider } from '../jobs/periodic-job.provider';
import { SsoSecrets } from './sso-secrets';
import { SsoSettingsService } from './sso-settings.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoAccountController, SsoSettingsController, SsoSignInController } from './sso.controller';
import { SsoRepository } from './sso.repository';

/** Single sign-on with OpenID Connect (SPEC §8f, issue 33 §3). */
@Module({
  imports: [OrganisationModule, RolesModule, AccountEmailModule],
  controllers: [SsoSignInController, SsoSettingsController, SsoAccountController],
  providers: [
    SsoRepository,
    // Stateless: a single sign-on of an invited person uses their invitation.
    InvitationsRepository,
    SsoSignInService,
    SsoSettingsService,
    SsoLinksService,
    SsoDomainRecheck,
    periodicJobProvider(
      SsoDomainRecheckJob,
      [SsoDomainRecheck, APP_CONFIG],
      (recheck: SsoDomainRecheck, config: AppConfig) =>
        new SsoDomainRecheckJob(recheck, config.sso.domainRecheckIntervalMs),
    ),
    {
      provide: SsoClients,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SsoClients(config.nodeEnv !== 'production'),
    },
    {
      provide: SsoDomainDns,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new SsoDomainDns(config.sso.dnsServers, config.sso.dnsTimeoutMs),
    },
    {
      provide: SsoSecrets,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SsoSecrets(config.apiKeyPepper),
    },
  ],
})
export class SsoModule {}
