import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import type { Logger } from 'pino';
import { AuditLogModule } from './audit-log/audit-log.module';
import { AuthModule } from './auth/auth.module';
import { AuthRoutesModule } from './auth/auth-routes.module';
import { SsoModule } from './sso/sso.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DownloadsModule } from './downloads/downloads.module';
import { HealthModule } from './health/health.module';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { LoggerModule } from './logging/logger.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OpenApiModule } from './openapi/openapi.module';
import { OrganisationModule } from './organisation/organisation.module';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { RolesModule } from './roles/roles.module';
import { MembersModule } from './members/members.module';
import { InvitationsModule } from './invitations/invitations.module';
import { TeamsModule } from './teams/teams.module';
import { ClassificationModule } from './classification/classification.module';
import { ClassificationDryRunModule } from './classification/classification-dry-run.module';
import { InterruptsModule } from './interrupts/interrupts.module';
import { SessionsModule } from './sessions/sessions.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { TracingModule } from './tracing/tracing.module';
import { EventsModule } from './events/events.module';
import { JobsModule } from './jobs/jobs.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { MailModule } from './mail/mail.module';
import { NotifyModule } from './notify/notify.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DiscoveryModule,
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(logger),
        DatabaseModule,
        NotificationsModule,
        // Early: routes are matched in registration order, and health checks are the most frequent calls.
        HealthModule,
        RateLimitsModule,
        JobsModule,
        AuthModule,
        AuthRoutesModule,
        SsoModule,
        OrganisationModule,
        RolesModule,
        MembersModule,
        InvitationsModule,
        TeamsModule,
        ClassificationModule,
        ClassificationDryRunModule,
        AuditLogModule,
        InterruptsModule,
        SessionsModule,
        McpModule,
        EventsModule,
        WebhooksModule,
        MailModule,
        NotifyModule,
        OpenApiModule,
        DownloadsModule,
        MetricsModule,
        TracingModule,
      ],
      // No global pipe: the validation pipe is on each @Body() and @Query()
      // (http/validated-params.ts).
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
