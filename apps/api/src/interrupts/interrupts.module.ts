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
import { SessionsModule } from '../sessions/sessions.module';

@Module({
  imports: [AllowancesModule, IdempotencyModule, TeamsModule, SessionsModule, EventsModule, WebhooksModule],
  controllers: [InterruptsController],
  providers: [InterruptsService, InterruptReviewService, InterruptsRepository],
  exports: [InterruptsService],
})
export class InterruptsModule {}
