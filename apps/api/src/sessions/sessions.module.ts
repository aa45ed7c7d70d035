import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { PeriodicJobsWorker } from '../jobs/periodic-jobs.worker';
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

@Module({
  imports: [AllowancesModule, IdempotencyModule, EventsModule, WebhooksModule],
  controllers: [SessionsController],
  providers: [
    SessionsService,
    SessionsRepository,
    SseStreamsFactory,
    LiveViewService,
    { provide: LIVE_VIEW_OPTIONS, useValue: DEFAULT_LIVE_VIEW_OPTIONS },
    {
      provide: SessionMessageRetentionJob,
      inject: [DataSource, SessionsRepository, APP_CONFIG, LOGGER, PeriodicJobsWorker],
      useFactory: (
        dataSource: DataSource,
        sessions: SessionsRepository,
        config: AppConfig,
        logger: Logger,
        periodic: PeriodicJobsWorker,
      ) => {
        const job = new SessionMessageRetentionJob(
          dataSource,
          sessions,
          config.sessions.messageRetentionMs,
          logger,
        );
        periodic.add(job);
        return job;
      },
    },
  ],
  exports: [SessionsService],
})
export class SessionsModule {}
