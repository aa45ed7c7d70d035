import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { Body } from '../../http/validated-params';
import { ApiConflictResponse, ApiExcludeEndpoint } from '@nestjs/swagger';
import type { MemberCall } from '../../auth/caller';
import { CurrentMember, MemberCaller } from '../../auth/decorators/current-principal.decorator';
import { MemberRoute, PublicRoute } from '../../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../../auth/principal';
import { IdParam } from '../../http/id-param.pipe';
import type { HttpRequest } from '../../http/platform';
import { ReadsRequestBody } from '../../http/reads-request-body.decorator';
import { requestStateOf } from '../../http/request-state';
import { ConnectSlackDto, SlackSettingsResponse } from '../dto/slack.dto';
import { SlackService } from './slack.service';
import { ApiController, Operation } from '../../openapi/operation.decorator';

/** Settings → Notifications → Slack (issue 30 §4): human-only; changes need `webhook.manage`. */
@ApiController('api/notifications/slack', 'notifications')
@MemberRoute('webhook.manage')
export class SlackSettingsController {
  constructor(private readonly slack: SlackService) {}

  @MemberRoute()
  @Operation.Get('/', 'getSlackSettings', {
    summary: "The organisation's Slack connection (never its secrets) and its latest messages",
    ok: SlackSettingsResponse,
  })
  settings(@CurrentMember() member: MemberPrincipal) {
    return this.slack.settings(member.organisationId);
  }

  @Operation.Put('/', 'connectSlack', {
    summary:
      "Connect (or reconnect) a Slack app: its bot token is checked with Slack's auth.test; 409 when Slack refuses it or cannot be reached",
    ok: SlackSettingsResponse,
  })
  @ApiConflictResponse({
    description: 'CONFLICT: Slack refused the bot token, or could not be reached to check it.',
  })
  connect(@MemberCaller() caller: MemberCall, @Body() body: ConnectSlackDto) {
    return this.slack.connect({ connection: body, ...caller });
  }

  @Operation.Delete('/', 'disconnectSlack', {
    summary: 'Disconnect Slack: its secrets and its message records are deleted',
    noContent: 'Disconnected.',
  })
  async disconnect(@MemberCaller() caller: MemberCall) {
    await this.slack.disconnect(caller);
  }
}

/**
 * Slack's interactivity requests (the Request URL of the app's Interactivity & Shortcuts). Not a
 * client API, so not in the contract: public as a route, and admitted only by Slack's v0
 * signature with the organisation's signing secret over the exact form bytes, which the front
 * door keeps for this path (`raw-form-routes.ts`). 200 with no body: Slack shows nothing; what
 * a person must know is posted to them alone.
 */
@Controller('api/slack/interactions')
export class SlackInteractionsController {
  constructor(private readonly slack: SlackService) {}

  @Post(':organisationId')
  @HttpCode(200)
  @PublicRoute()
  @ReadsRequestBody()
  @ApiExcludeEndpoint()
  async interact(
    @IdParam('organisationId') organisationId: string,
    @Req() req: HttpRequest,
  ): Promise<void> {
    await this.slack.interact(organisationId, req.headers, requestStateOf(req).rawBody);
  }
}
