import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ClientIp, CurrentMember } from './decorators/current-principal.decorator';
import { HumanRoute, MemberRoute } from './decorators/route-access.decorator';
import type { MemberPrincipal } from './principal';
import { AuthService, SignedIn } from './auth.service';
import { SessionService } from './session.service';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';

@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
  ) {}

  @Post('sign-up')
  @HumanRoute()
  async signUp(
    @Body() body: SignUpDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignedIn['body']> {
    const signedIn = await this.auth.signUp(body, ip);
    this.sessions.setCookie(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  @Post('sign-in')
  @HttpCode(200)
  @HumanRoute()
  async signIn(@Body() body: SignInDto, @Res({ passthrough: true }) res: Response): Promise<SignedIn['body']> {
    const signedIn = await this.auth.signIn(body.email, body.password);
    this.sessions.setCookie(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  @Post('sign-out')
  @HttpCode(204)
  @MemberRoute()
  async signOut(@CurrentMember() member: MemberPrincipal, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.revoke(member.organisationId, member.sessionId);
    this.sessions.clearCookie(res);
  }

  @Get('session')
  @MemberRoute()
  async session(@CurrentMember() member: MemberPrincipal): Promise<SignedIn['body'] & { permissions: string[] }> {
    return {
      ...(await this.auth.describe(member.organisationId, member.memberId)),
      permissions: [...member.permissions],
    };
  }
}
