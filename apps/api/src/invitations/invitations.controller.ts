import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { SignedIn } from '../auth/auth.service';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { HumanRoute, MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { SessionService } from '../auth/session.service';
import { InvitationsService } from './invitations.service';
import { AcceptInvitationDto } from './dto/accept-invitation.dto';
import { CreateInvitationDto } from './dto/create-invitation.dto';
import type { CreatedInvitationResponse, InvitationResponse } from './dto/invitation.response';

@Controller('api/invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  @MemberRoute('member.invite')
  async list(@CurrentMember() member: MemberPrincipal): Promise<{ invitations: InvitationResponse[] }> {
    return { invitations: await this.invitations.list(member) };
  }

  @Post()
  @MemberRoute('member.invite')
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
  async accept(
    @Param('token') token: string,
    @Body() body: AcceptInvitationDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignedIn['body']> {
    const signedIn = await this.invitations.accept(token, body.name, body.password, ip);
    this.sessions.setCookie(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }
}
