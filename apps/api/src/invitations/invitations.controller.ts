import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { SignedInResponse } from '../auth/dto/session.response';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { HumanRoute, MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { SessionService } from '../auth/session.service';
import { InvitationsService } from './invitations.service';
import { AcceptInvitationDto } from './dto/accept-invitation.dto';
import { CreateInvitationDto } from './dto/create-invitation.dto';
import {
  CreatedInvitationResponse,
  InvitationListResponse,
} from './dto/invitation.response';

@Controller('api/invitations')
@ApiTags('invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  @MemberRoute('member.invite')
  @ApiOperation({
    operationId: 'listInvitations',
    summary: 'List pending and accepted invitations, newest first (expired ones are not listed)',
  })
  @ApiOkResponse({ type: InvitationListResponse })
  async list(@CurrentMember() member: MemberPrincipal): Promise<InvitationListResponse> {
    return { invitations: await this.invitations.list(member) };
  }

  @Post()
  @MemberRoute('member.invite')
  @ApiOperation({ operationId: 'createInvitation', summary: 'Invite someone by email; the token is in this response only' })
  @ApiCreatedResponse({ type: CreatedInvitationResponse })
  create(
    @CurrentMember() member: MemberPrincipal,
    @Body() body: CreateInvitationDto,
    @ClientIp() ip: string | null,
  ): Promise<CreatedInvitationResponse> {
    return this.invitations.create(member, body.email, body.roleId, ip);
  }

  /** Joins the organisation and signs in, like sign-up (the invitee has no session yet). */
  @Post(':token/accept')
  @HumanRoute()
  @ApiOperation({
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation: join the organisation and sign in (sets the session cookie)',
  })
  @ApiCreatedResponse({ type: SignedInResponse })
  async accept(
    @Param('token') token: string,
    @Body() body: AcceptInvitationDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignedInResponse> {
    const signedIn = await this.invitations.accept(token, body.name, body.password, ip);
    this.sessions.setCookie(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }
}
