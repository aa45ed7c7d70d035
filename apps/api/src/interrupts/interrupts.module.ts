import { Module } from '@nestjs/common';
import { PeriodicJobsWorker } from '../jobs/periodic-jobs.worker';
import { OrganisationModule } from '../organisation/organisation.module';
import { InterruptExpiryJob } from './interrupt-expiry.job';
import { InterruptEscalationJob } from './interrupt-escalation.job';
import { InterruptLifecycleService } from './interrupt-lifecycle.service';
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
    InterruptsRepository,
    InterruptWaits,
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
  exports: [InterruptsService, InterruptLifecycleService, InterruptWaits, InterruptReviewService],
})
export class InterruptsModule {}
