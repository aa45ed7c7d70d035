import { Module } from '@nestjs/common';
import { AllowancesModule } from '../allowances/allowances.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { EventsModule } from '../events/events.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DEFAULT_LIVE_VIEW_OPTIONS, LIVE_VIEW_OPTIONS, LiveViewService } from './live-view.service';
import { SessionsController } from './sessions.controller';
import { SseStreamsFactory } from '../http/sse-streams';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [AllowancesModule, IdempotencyModule, EventsModule, WebhooksModule],
  controllers: [SessionsController],
  providers: [
    SessionsService,
    SessionsRepository,
    SseStreamsFactory,
    LiveViewService,
    { provide: LIVE_VIEW_OPTIONS, useValue: DEFAULT_LIVE_VIEW_OPTIONS },
  ],
  exports: [SessionsService],
})
export class SessionsModule {}
