import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiProduces } from '@nestjs/swagger';
import { OrganisationInQuery } from '../auth/decorators/route-access.decorator';

/**
 * How a member's Server-Sent Events stream (served by `SseStreams`) is declared: it is opened with
 * `EventSource`, which cannot send headers, so the organisation may be chosen in the query; it
 * resumes after the `Last-Event-ID` header (`lastEventId`: that header's description, what its
 * number counts); it answers `text/event-stream`. The events are the route's own `ApiOkResponse`.
 */
export const EventStream = (lastEventId: string) =>
  applyDecorators(
    ApiProduces('text/event-stream'),
    ApiHeader({
      name: 'Last-Event-ID',
      required: false,
      description: lastEventId,
      schema: { type: 'integer', minimum: 0 },
    }),
    OrganisationInQuery(),
  );
