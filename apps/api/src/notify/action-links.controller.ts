import { Body } from '../http/validated-params';
import { ClientIp } from '../auth/decorators/current-principal.decorator';
import { HumanRoute } from '../auth/decorators/route-access.decorator';
import { InterruptResponse } from '../interrupts/dto/interrupt.response';
import { ActionLinksService } from './action-links.service';
import {
  ActionLinkPreviewResponse,
  DecideWithActionLinkDto,
  PreviewActionLinkDto,
} from './dto/action-link.dto';
import { ApiController, Operation } from '../openapi/operation.decorator';

/**
 * Emailed single-use action links (issue 30, §2): the token is the credential, so these routes
 * need no sign-in (human-only: a key gets 403). The token comes in the body, never in a URL.
 */
@ApiController('api/action-links', 'notifications')
@HumanRoute()
export class ActionLinksController {
  constructor(private readonly links: ActionLinksService) {}

  @Operation.Post('preview', 'previewActionLink', {
    summary: 'What an emailed action link would decide, for whom (changes nothing)',
    ok: ActionLinkPreviewResponse,
  })
  preview(@Body() body: PreviewActionLinkDto) {
    return this.links.preview(body.token);
  }

  @Operation.Post('decide', 'decideWithActionLink', {
    summary: 'Decide with an emailed action link, once, as the member it was sent to',
    ok: InterruptResponse,
  })
  decide(@Body() body: DecideWithActionLinkDto, @ClientIp() ip: string | null) {
    return this.links.decide(body.token, body.message, ip);
  }
}
