import { Req, Res } from '@nestjs/common';
import { Body, Query } from '../http/validated-params';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiPaymentRequiredResponse,
} from '@nestjs/swagger';
import type { HttpRequest, HttpResponse } from '../http/platform';
import { EventStream } from '../http/event-stream.decorator';
import { SseStreams, SseStreamsFactory } from '../http/sse-streams';
import {
  CurrentApiKey,
  CurrentCaller,
  CurrentMember,
  KeyCaller,
  MemberCaller,
} from '../auth/decorators/current-principal.decorator';
import type { KeyCall, MemberCall } from '../auth/caller';
import {
  MachineOrMemberRoute,
  MachineRoute,
  MemberRoute,
} from '../auth/decorators/route-access.decorator';
import type { ApiKeyPrincipal, MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency.service';
import { markReplay } from '../idempotency/replay-header.util';
import { LiveViewCursor, LiveViewService } from './live-view.service';
import { SessionsService } from './sessions.service';
import { AppendMessagesDto } from './dto/append-messages.dto';
import { StartSessionDto } from './dto/start-session.dto';
import {
  AppendMessagesResponse,
  SessionListResponse,
  SessionResponse,
} from './dto/session.response';
import { ListSessionsQuery } from './dto/list-sessions.query';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/sessions', 'sessions')
export class SessionsController {
  /** The Live View's open streams: the HTTP side of the feed (responses, heartbeats, the viewer's sign-in cookie). */
  private readonly viewers: SseStreams<LiveViewCursor>;

  constructor(
    private readonly sessions: SessionsService,
    private readonly liveView: LiveViewService,
    sse: SseStreamsFactory,
  ) {
    this.viewers = sse.for(liveView);
  }

  @MachineRoute()
  @Operation.Post('/', 'startSession', { summary: 'Start a Live View session' })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiCreatedResponse({ type: SessionResponse })
  @ApiPaymentRequiredResponse({
    description:
      "AGENT_HOURS_ALLOWANCE_EXHAUSTED: the month's included agent hours are used. ACTIVE_SESSIONS_EXHAUSTED: the plan's active sessions are all open (end one to start another).",
  })
  @ApiConflictResponse({
    description: 'CONFLICT: the Idempotency-Key was used with a different request.',
  })
  async start(
    @KeyCaller() caller: KeyCall,
    @Body() body: StartSessionDto,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<SessionResponse> {
    return markReplay(
      res,
      await this.sessions.start({
        name: body.name,
        externalId: body.externalId ?? null,
        metadata: body.metadata ?? null,
        idempotency,
        ...caller,
      }),
    );
  }

  @MachineOrMemberRoute('session.read')
  @Operation.Get('/', 'listSessions', {
    summary: "The organisation's sessions, newest first, a page at a time",
    ok: SessionListResponse,
  })
  list(
    @CurrentCaller() caller: ApiKeyPrincipal | MemberPrincipal,
    @Query() query: ListSessionsQuery,
  ) {
    return this.sessions.list({ organisationId: caller.organisationId, listing: query });
  }

  @MachineOrMemberRoute('session.read')
  @Operation.Get(':id', 'retrieveSession', { summary: 'One session', ok: SessionResponse })
  get(@CurrentCaller() caller: ApiKeyPrincipal | MemberPrincipal, @IdParam() id: string) {
    return this.sessions.get(caller.organisationId, id);
  }

  @MachineRoute()
  @Operation.Post(':id/messages', 'appendSessionMessages', {
    summary: 'Append 1–100 messages to an active session',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiCreatedResponse({ type: AppendMessagesResponse })
  @ApiPaymentRequiredResponse({
    description:
      "AGENT_HOURS_ALLOWANCE_EXHAUSTED: the month's included agent hours are used (the session stays open; it can still be ended). SESSION_STORAGE_EXHAUSTED: the messages would pass the plan's stored session-message bytes (the retention frees space).",
  })
  @ApiConflictResponse({
    description:
      'CONFLICT: the session has ended or was disconnected, or the Idempotency-Key was used with a different request.',
  })
  async append(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam() id: string,
    @Body() body: AppendMessagesDto,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<{ appended: number }> {
    return markReplay(
      res,
      await this.sessions.append({
        organisationId: key.organisationId,
        sessionId: id,
        messages: body.messages,
        idempotency,
      }),
    );
  }

  @MachineRoute()
  @Operation.Post(':id/end', 'endSession', { summary: 'End a session', ok: SessionResponse })
  @ApiConflictResponse({
    description: 'CONFLICT: the session has already ended or was disconnected.',
  })
  end(@KeyCaller() caller: KeyCall, @IdParam() id: string) {
    return this.sessions.end(caller, id);
  }

  @MemberRoute('session.disconnect')
  @Operation.Post(':id/disconnect', 'disconnectSession', {
    summary: 'Disconnect a session from the dashboard',
    ok: SessionResponse,
  })
  @ApiConflictResponse({
    description: 'CONFLICT: the session has already ended or was disconnected.',
  })
  disconnect(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    return this.sessions.disconnect(caller, id);
  }

  /** The Live View: Server-Sent Events, resumable with `Last-Event-ID`. */
  @MemberRoute('session.read')
  @EventStream('Resume after this message number.')
  @Operation.Get(':id/stream', 'streamSession', {
    summary: 'The Live View: the session as Server-Sent Events',
  })
  @ApiOkResponse({
    description:
      'Events: `session` (the session record, first and last), `message` (id = its number; data {seq, role, content, createdAt}); ' +
      "comment heartbeats every 15 s. Ends after a finished session's last message.",
    schema: { type: 'string' },
  })
  @ApiNoContentResponse({
    description:
      'The session has finished and Last-Event-ID is its last message: nothing more will come.',
  })
  stream(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Req() req: HttpRequest,
    @Res() res: HttpResponse,
  ): Promise<void> {
    return this.viewers.serve(
      req,
      res,
      member,
      'Last-Event-ID must be the number of a message of this session.',
      (lastEventId) => this.liveView.start(member.organisationId, id, lastEventId),
    );
  }
}
