import { Param, Res } from '@nestjs/common';
import { Body } from '../http/validated-params';
import { ApiBody } from '@nestjs/swagger';
import type { HttpResponse } from '../http/platform';
import type { MemberCall, GranterCall, UserCall } from '../auth/caller';
import {
  ClientIp,
  CurrentMember,
  MemberCaller,
  GranterCaller,
  UserCaller,
} from '../auth/decorators/current-principal.decorator';
import { HumanRoute, MemberRoute, UserRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { SessionCookies } from '../auth/session-cookie.util';
import { refuseUnderSso } from '../auth/sso-session.util';
import { IdParam } from '../http/id-param.pipe';
import { OrganisationJoinedResponse } from '../users/dto/account.response';
import { InvitationAcceptanceService } from './invitation-acceptance.service';
import { InvitationsService } from './invitations.service';
import { AcceptInvitationDto } from './dto/accept-invitation.dto';
import { JoinInvitationDto } from './dto/join-invitation.dto';
import { CreateInvitationDto } from './dto/create-invitation.dto';
import {
  CreatedInvitationResponse,
  InvitationListResponse,
  InvitationPreviewResponse,
} from './dto/invitation.response';
import { CostlyWrite } from '../rate-limits/costly-write.decorator';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/invitations', 'invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly acceptance: InvitationAcceptanceService,
    private readonly cookies: SessionCookies,
  ) {}

  @MemberRoute('member.invite')
  @Operation.Get('/', 'listInvitations', {
    summary: 'List pending and accepted invitations, newest first (expired ones are not listed)',
    ok: InvitationListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { invitations: await this.invitations.list(member.organisationId) };
  }

  @MemberRoute('member.invite')
  @CostlyWrite('invitation_create')
  @Operation.Post('/', 'createInvitation', {
    summary:
      'Invite someone by email, whether or not they have an account; the token is in this response only. ' +
      '409 only for a current member of this organisation or a pending invitation to it.',
    created: CreatedInvitationResponse,
  })
  create(@GranterCaller() caller: GranterCall, @Body() body: CreateInvitationDto) {
    return this.invitations.create(caller, body.email, body.roleId);
  }

  @MemberRoute('member.invite')
  @Operation.Delete(':id', 'withdrawInvitation', {
    summary: 'Withdraw a pending invitation: its token stops working',
    noContent: 'Withdrawn.',
  })
  async withdraw(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    await this.invitations.withdraw(caller, id);
  }

  @HumanRoute()
  @Operation.Get(':token/preview', 'getInvitation', {
    summary: 'What a pending invitation offers: organisation, role, and the address it was sent to',
    ok: InvitationPreviewResponse,
  })
  preview(@Param('token') token: string) {
    return this.acceptance.preview(token);
  }

  /** Signs up from the invitation link: a new account joins the organisation and is signed in. */
  @HumanRoute()
  @Operation.Post(':token/accept', 'acceptInvitation', {
    summary:
      'Accept an invitation with a new account: join the organisation and sign in (sets the session cookie). ' +
      'An address that already has an account signs in and uses join instead.',
    created: OrganisationJoinedResponse,
  })
  async accept(
    @Param('token') token: string,
    @Body() body: AcceptInvitationDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: HttpResponse,
  ) {
    const signedIn = await this.acceptance.accept(
      token,
      body.name,
      body.password,
      ip,
      body.emailProof,
    );
    this.cookies.set(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  /** The signed-in person accepts an invitation sent to their address: another organisation on the same account. */
  @UserRoute()
  @Operation.Post(':token/join', 'joinInvitation', {
    summary:
      'Accept an invitation sent to your address while signed in: its organisation joins your account',
    created: OrganisationJoinedResponse,
  })
  // SPEC §8f: `{emailProof?}` — no body at all joins as before (the address must be verified where required).
  @ApiBody({ type: JoinInvitationDto, required: false })
  join(
    @UserCaller() caller: UserCall,
    @Param('token') token: string,
    @Body() body: JoinInvitationDto,
  ) {
    refuseUnderSso(caller.user, 'joinOrganisation');
    return this.acceptance.join(caller, token, body.emailProof);
  }
}
