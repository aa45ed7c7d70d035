import { Module } from '@nestjs/common';
import { AllowancesModule } from '../allowances/allowances.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { EventsModule } from '../events/events.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { TeamsModule } from '../teams/teams.module';
import { InterruptReviewService } from './interrupt-review.service';
import { InterruptsController } from './interrupts.controller';
import { InterruptsService } from './interrupts.service';

@Module({
  imports: [AllowancesModule, IdempotencyModule, TeamsModule, EventsModule, WebhooksModule],
  controllers: [InterruptsController],
  providers: [InterruptsService, InterruptReviewService],
  exports: [InterruptsService],
})
export class InterruptsModule {}
