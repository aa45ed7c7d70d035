import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ClientIp, CurrentMember } from './decorators/current-principal.decorator';
import { HumanRoute, MemberRoute } from './decorators/route-access.decorator';
import type { MemberPrincipal } from './principal';
import { AuthService } from './auth.service';
import { CurrentSessionResponse, SignedInResponse } from './dto/session.response';
import { SessionService } from './session.service';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';

@Controller('api/auth')
@ApiTags('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
  ) {}

  @Post('sign-up')
  @HumanRoute()
  @ApiOperation({ operationId: 'signUp', summary: 'Create an organisation (Free plan) and its Owner, and sign in' })
  @ApiCreatedResponse({ type: SignedInResponse, description: 'Signed in: sets the HttpOnly session cookie.' })
  async signUp(
    @Body() body: SignUpDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignedInResponse> {
    const signedIn = await this.auth.signUp(body, ip);
    this.sessions.setCookie(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  @Post('sign-in')
  @HttpCode(200)
  @HumanRoute()
  @ApiOperation({ operationId: 'signIn', summary: 'Sign in with email and password' })
  @ApiOkResponse({ type: SignedInResponse, description: 'Signed in: sets the HttpOnly session cookie.' })
  async signIn(
    @Body() body: SignInDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignedInResponse> {
    const signedIn = await this.auth.signIn(body.email, body.password, ip);
    this.sessions.setCookie(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  @Post('sign-out')
  @HttpCode(204)
  @MemberRoute()
  @ApiOperation({ operationId: 'signOut', summary: 'End this session' })
  @ApiNoContentResponse({ description: 'Signed out; the cookie is cleared.' })
  async signOut(@CurrentMember() member: MemberPrincipal, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.revoke(member.organisationId, member.sessionId);
    this.sessions.clearCookie(res);
  }

  @Get('session')
  @MemberRoute()
  @ApiOperation({ operationId: 'getSession', summary: 'Who is signed in, and their permissions' })
  @ApiOkResponse({ type: CurrentSessionResponse })
  async session(@CurrentMember() member: MemberPrincipal): Promise<CurrentSessionResponse> {
    return {
      ...(await this.auth.describe(member.organisationId, member.memberId)),
      permissions: [...member.permissions],
    };
  }
}
