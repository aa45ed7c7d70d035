import { Module } from '@nestjs/common';
import { SseStreamsFactory } from '../http/sse-streams';
import { OrganisationEventsAnnouncer } from './organisation-events.announcer';
import { OrganisationEventsController } from './organisation-events.controller';
import {
  DEFAULT_ORGANISATION_EVENTS_OPTIONS,
  ORGANISATION_EVENTS_OPTIONS,
  OrganisationEventsService,
} from './organisation-events.service';

/** The organisation's live event stream (GET /api/events) and the announcer its writers call. */
@Module({
  controllers: [OrganisationEventsController],
  providers: [
    OrganisationEventsService,
    OrganisationEventsAnnouncer,
    SseStreamsFactory,
    { provide: ORGANISATION_EVENTS_OPTIONS, useValue: DEFAULT_ORGANISATION_EVENTS_OPTIONS },
  ],
  exports: [OrganisationEventsAnnouncer],
})
export class EventsModule {}
