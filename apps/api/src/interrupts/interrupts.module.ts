import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { WebhookSecretBox } from '../webhooks/webhook-secret.util';
import { WebhookSender } from '../webhooks/webhook-sender';
import type { AddressResolver } from '../webhooks/webhook-url.util';
import { WEBHOOK_RESOLVER } from '../webhooks/webhooks.service';
import { InterruptResumeWorker } from './interrupt-resume.worker';
import { InterruptResumes } from './interrupt-resumes';
import { PeriodicJobsWorker } from '../jobs/periodic-jobs.worker';
import { outboxWorkerProvider } from '../jobs/outbox-worker.provider';
import { OrganisationModule } from '../organisation/organisation.module';
import { InterruptExpiryJob } from './interrupt-expiry.job';
import { InterruptEscalationJob } from './interrupt-escalation.job';
import { InterruptLifecycleService } from './interrupt-lifecycle.service';
import { InterruptExpiry } from './interrupt-expiry';
import { AllowancesModule } from '../allowances/allowances.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { EventsModule } from '../events/events.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { TeamsModule } from '../teams/teams.module';
import { InterruptReviewService } from './interrupt-review.service';
import { InterruptsController } from './interrupts.controller';
import { InterruptsService } from './interrupts.service';
import { InterruptsRepository } from './interrupts.repository';
import { InterruptWaits } from './interrupt-waits';
import { SessionsModule } from '../sessions/sessions.module';
import { ClassificationModule } from '../classification/classification.module';

@Module({
  imports: [
    AllowancesModule,
    IdempotencyModule,
    TeamsModule,
    SessionsModule,
    EventsModule,
    WebhooksModule,
    ClassificationModule,
    OrganisationModule,
  ],
  controllers: [InterruptsController],
  providers: [
    InterruptsService,
    InterruptReviewService,
    InterruptLifecycleService,
    InterruptExpiry,
    InterruptsRepository,
    InterruptWaits,
    {
      // resumeUrl (SPEC §8e): kept at create, made due by the event that ends the interrupt.
      provide: InterruptResumes,
      inject: [APP_CONFIG, WEBHOOK_RESOLVER, WebhookOutbox],
      useFactory: (config: AppConfig, resolve: AddressResolver, outbox: WebhookOutbox) => {
        const resumes = new InterruptResumes(
          new WebhookSecretBox(config.apiKeyPepper, 'interrupt-resume/v1'),
          resolve,
          config.nodeEnv === 'production',
          config.webhooks.retryScheduleMs.length + 1,
        );
        outbox.listen(resumes);
        return resumes;
      },
    },
    outboxWorkerProvider(
      InterruptResumeWorker,
      [InterruptResumes, WebhookSender, WEBHOOK_RESOLVER],
      (base, config, resumes: InterruptResumes, sender: WebhookSender, resolve: AddressResolver) =>
        new InterruptResumeWorker(
          base,
          config.webhooks,
          config.nodeEnv === 'production',
          resumes,
          sender,
          resolve,
        ),
    ),
    {
      provide: InterruptExpiryJob,
      inject: [InterruptLifecycleService, PeriodicJobsWorker],
      useFactory: (lifecycle: InterruptLifecycleService, periodic: PeriodicJobsWorker) => {
        const job = new InterruptExpiryJob(lifecycle);
        periodic.add(job);
        return job;
      },
    },
    {
      provide: InterruptEscalationJob,
      inject: [InterruptLifecycleService, PeriodicJobsWorker],
      useFactory: (lifecycle: InterruptLifecycleService, periodic: PeriodicJobsWorker) => {
        const job = new InterruptEscalationJob(lifecycle);
        periodic.add(job);
        return job;
      },
    },
  ],
  exports: [
    InterruptsService,
    InterruptLifecycleService,
    InterruptWaits,
    InterruptReviewService,
    InterruptsRepository,
  ],
})
export class InterruptsModule {}
