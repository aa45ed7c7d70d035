import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { outboxWorkerProvider } from '../jobs/outbox-worker.provider';
import { PeriodicJobsWorker } from '../jobs/periodic-jobs.worker';
import { LOGGER } from '../logging/logger.module';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookResolver } from './webhook-resolver';
import { WebhookRetentionJob } from './webhook-retention.job';
import { WebhookSecretBox } from './webhook-secret.util';
import { WebhookSender } from './webhook-sender';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WEBHOOK_RESOLVER, WEBHOOK_SECRET_BOX, WebhooksService } from './webhooks.service';

/**
 * Webhooks (SPEC §8a): management for members, the outbox that interrupts and sessions write
 * their events to, and the delivery worker every instance runs on the job runner. The worker is
 * woken by the organisation-event announcements every writer already makes after its commit (on
 * every instance), and otherwise polls every WEBHOOK_POLL_INTERVAL for retries coming due.
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhooksRepository,
    { provide: WebhookResolver, useValue: new WebhookResolver() },
    {
      provide: WEBHOOK_RESOLVER,
      inject: [WebhookResolver],
      useFactory: (resolver: WebhookResolver) => (host: string) => resolver.lookup(host),
    },
    {
      provide: WEBHOOK_SECRET_BOX,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new WebhookSecretBox(config.apiKeyPepper),
    },
    {
      provide: WebhookOutbox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new WebhookOutbox(config.webhooks.retryScheduleMs.length + 1),
    },
    {
      provide: WebhookSender,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new WebhookSender(config.webhooks.timeoutMs, config.webhooks.endpointConcurrency),
    },
    outboxWorkerProvider(
      WebhookDeliveryWorker,
      [WEBHOOK_SECRET_BOX, WebhookSender, WEBHOOK_RESOLVER],
      (
        base,
        config,
        box: WebhookSecretBox,
        sender: WebhookSender,
        resolve: (host: string) => ReturnType<WebhookResolver['lookup']>,
      ) =>
        new WebhookDeliveryWorker(
          base,
          config.webhooks,
          config.nodeEnv === 'production',
          box,
          sender,
          resolve,
        ),
      // New events: look for them now, past any pause.
      (worker) => worker.nudge(),
    ),
    {
      provide: WebhookRetentionJob,
      inject: [DataSource, APP_CONFIG, LOGGER, PeriodicJobsWorker],
      useFactory: (
        dataSource: DataSource,
        config: AppConfig,
        logger: Logger,
        periodic: PeriodicJobsWorker,
      ) => {
        const job = new WebhookRetentionJob(dataSource, config.webhooks.retentionMs, logger);
        periodic.add(job);
        return job;
      },
    },
  ],
  // The resumeUrl worker (interrupts) sends as webhooks do, with the same URL checks.
  exports: [WebhookOutbox, WebhookSender, WEBHOOK_RESOLVER],
})
export class WebhooksModule implements OnApplicationShutdown {
  constructor(@Inject(WebhookSender) private readonly sender: WebhookSender) {}

  /** After the job runner drained the deliveries in flight (before application shutdown). */
  onApplicationShutdown(): void {
    this.sender.close();
  }
}
