import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { LOGGER } from '../logging/logger.module';
import { AllowancesModule } from '../allowances/allowances.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { EventsModule } from '../events/events.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DEFAULT_LIVE_VIEW_OPTIONS, LIVE_VIEW_OPTIONS, LiveViewService } from './live-view.service';
import { SessionsController } from './sessions.controller';
import { SseStreamsFactory } from '../http/sse-streams';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { SessionMessageRetentionJob } from './session-message-retention.job';
import { periodicJobProvider } from '../jobs/periodic-job.provider';

@Module({
  imports: [AllowancesModule, IdempotencyModule, EventsModule, WebhooksModule],
  controllers: [SessionsController],
  providers: [
    SessionsService,
    SessionsRepository,
    SseStreamsFactory,
    LiveViewService,
    { provide: LIVE_VIEW_OPTIONS, useValue: DEFAULT_LIVE_VIEW_OPTIONS },
    periodicJobProvider(
      SessionMessageRetentionJob,
      [DataSource, SessionsRepository, APP_CONFIG, LOGGER],
      (dataSource: DataSource, sessions: SessionsRepository, config: AppConfig, logger: Logger) =>
        new SessionMessageRetentionJob(
          dataSource,
          sessions,
          config.sessions.messageRetentionMs,
          logger,
        ),
    ),
  ],
  exports: [SessionsService],
})
export class SessionsModule {}
