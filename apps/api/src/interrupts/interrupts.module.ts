import { Module } from '@nestjs/common';
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
  imports: [AllowancesModule, IdempotencyModule, TeamsModule, SessionsModule, EventsModule, WebhooksModule, ClassificationModule],
  controllers: [InterruptsController],
  providers: [InterruptsService, InterruptReviewService, InterruptsRepository, InterruptWaits],
  exports: [InterruptsService, InterruptWaits],
})
export class InterruptsModule {}
