import { Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import type { HttpRequest, HttpResponse } from '../http/platform';
import { CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { EventStream } from '../http/event-stream.decorator';
import { SseStreams, SseStreamsFactory } from '../http/sse-streams';
import { EventStreamPosition, OrganisationEvent } from './organisation-event.response';
import { OrganisationEventsCursor, OrganisationEventsService } from './organisation-events.service';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/events', 'events')
@ApiExtraModels(OrganisationEvent, EventStreamPosition)
export class OrganisationEventsController {
  /** The open streams: the HTTP side of the feed (responses, heartbeats, the member's sign-in cookie). */
  private readonly streams: SseStreams<OrganisationEventsCursor>;

  constructor(
    private readonly events: OrganisationEventsService,
    sse: SseStreamsFactory,
  ) {
    this.streams = sse.for(events);
  }

  /** The organisation's live events for the dashboard: Server-Sent Events, resumable. */
  @MemberRoute('interrupt.read')
  @EventStream('Resume after this event id (the organisation audit-log sequence number).')
  @Operation.Get('/', 'streamEvents', {
    summary: "The organisation's interrupt and session events as Server-Sent Events",
  })
  @ApiOkResponse({
    description:
      'First `retry: 3000`, then `ready` (data EventStreamPosition; id = the position the stream continues after), or ' +
      '`reset` when Last-Event-ID is more than 10,000 audit entries behind (or ahead): refetch, then carry on. Then one ' +
      'event per change, `event:` its type, `id:` its audit sequence number, `data:` an OrganisationEvent: ' +
      'interrupt.created, interrupt.decided, interrupt.answered (after the interrupt.decided that answered it; only the ' +
      'last of the two carries the id), interrupt.assigned, interrupt.unassigned, interrupt.escalated, interrupt.expired, ' +
      "interrupt.withdrawn, interrupt.reminder, interrupt.approval_added (an approval short of an action's quorum), and — for members holding " +
      'session.read — session.started, session.ended. Comment heartbeats every 15 s; the stream closes when the member ' +
      'signs out or loses interrupt.read.',
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        // The data of each event, for typed clients.
        'x-interlock-event-data': {
          oneOf: [
            { $ref: getSchemaPath(OrganisationEvent) },
            { $ref: getSchemaPath(EventStreamPosition) },
          ],
        },
      } as never,
    },
  })
  stream(
    @CurrentMember() member: MemberPrincipal,
    @Req() req: HttpRequest,
    @Res() res: HttpResponse,
  ): Promise<void> {
    return this.streams.serve(
      req,
      res,
      member,
      'Last-Event-ID must be the id of an event of this stream (a non-negative integer).',
      (lastEventId) => this.events.start(member.organisationId, member.permissions, lastEventId),
    );
  }
}
