import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { HttpResponse } from '../http/platform';
import { AccountResponse, OrganisationJoinedResponse } from '../users/dto/account.response';
import { ClientIp, CurrentMember, CurrentUser } from './decorators/current-principal.decorator';
import { HumanRoute, MemberRoute, UserRoute } from './decorators/route-access.decorator';
import type { MemberPrincipal, UserPrincipal } from './principal';
import { AuthService } from './auth.service';
import { SignInSessionResponse } from './dto/sign-in-session.response';
import { SessionCookies } from './session-cookie.util';
import { SignInSessionService } from './sign-in-session.service';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';
import { PasswordsService } from '../users/passwords.service';
import { PasswordResetConfirmDto, PasswordResetRequestDto } from '../users/dto/password.dto';
import { VerifyEmailDto } from '../users/dto/email-verification.dto';
import { EmailVerificationService } from '../users/email-verification.service';
import { NoContent } from '../openapi/no-content.decorator';

@Controller('api/auth')
@ApiTags('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly signIns: SignInSessionService,
    private readonly cookies: SessionCookies,
    private readonly passwords: PasswordsService,
    private readonly verification: EmailVerificationService,
  ) {}

  @Post('sign-up')
  @HumanRoute()
  @ApiOperation({
    operationId: 'signUp',
    summary: 'Create an account and an organisation (Free plan) you own, and sign in',
  })
  @ApiCreatedResponse({
    type: OrganisationJoinedResponse,
    description: 'Signed in: sets the HttpOnly session cookie.',
  })
  async signUp(
    @Body() body: SignUpDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<OrganisationJoinedResponse> {
    const signedIn = await this.auth.signUp({
      email: body.email,
      password: body.password,
      name: body.name,
      organisationName: body.organisationName,
      ip,
    });
    this.cookies.set(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  @Post('sign-in')
  @HttpCode(200)
  @HumanRoute()
  @ApiOperation({ operationId: 'signIn', summary: 'Sign in with email and password' })
  @ApiOkResponse({
    type: AccountResponse,
    description: 'Signed in: sets the HttpOnly session cookie.',
  })
  async signIn(
    @Body() body: SignInDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<AccountResponse> {
    const signedIn = await this.auth.signIn(body.email, body.password, ip, body.code);
    this.cookies.set(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  @Post('password-reset')
  @HttpCode(202)
  @HumanRoute()
  @ApiOperation({
    operationId: 'requestPasswordReset',
    summary:
      'Email a password reset link (single use, 30 minutes) to this address, if it has an account',
    description:
      'Answers 202 whether or not the address has an account; only its owner learns which, from their mailbox. Throttled per client address (429), and at most a few emails per account per hour (beyond them: still 202, no email).',
  })
  @ApiAcceptedResponse({ description: 'Asked: an email follows if the address has an account.' })
  async requestPasswordReset(
    @Body() body: PasswordResetRequestDto,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.passwords.requestReset(body.email, ip);
  }

  @Post('password-reset/confirm')
  @HumanRoute()
  @ApiOperation({
    operationId: 'confirmPasswordReset',
    summary:
      "Set a new password with a reset link's token; every sign-in session of the account ends",
  })
  @NoContent('The password is changed; sign in with it.')
  async confirmPasswordReset(
    @Body() body: PasswordResetConfirmDto,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.passwords.confirmReset(body.token, body.password, ip);
  }

  @Post('verify-email')
  @HumanRoute()
  @ApiOperation({
    operationId: 'verifyEmail',
    summary:
      "Verify your email address with a verification link's token (works signed in or not, in any browser)",
  })
  @NoContent('The address is verified (or already was).')
  async verifyEmail(@Body() body: VerifyEmailDto, @ClientIp() ip: string | null): Promise<void> {
    await this.verification.verify(body.token, ip);
  }

  @Post('sign-out')
  @UserRoute()
  @ApiOperation({
    operationId: 'signOut',
    summary: 'End this sign-in session (for every organisation)',
  })
  @NoContent('Signed out; the cookie is cleared.')
  async signOut(
    @CurrentUser() user: UserPrincipal,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<void> {
    await this.signIns.revoke(user.signInSessionId);
    this.cookies.clear(res);
  }

  @Get('session')
  @MemberRoute()
  @ApiOperation({
    operationId: 'getSignInSession',
    summary:
      'Who is signed in, as a member of the organisation this request acts for: role and permissions',
  })
  @ApiOkResponse({ type: SignInSessionResponse })
  signInSession(@CurrentMember() member: MemberPrincipal): Promise<SignInSessionResponse> {
    return this.auth.describeSignInSession(
      member.organisationId,
      {
        id: member.memberId,
        email: member.email,
        name: member.memberName,
        roleId: member.roleId,
        roleName: member.roleName,
      },
      [...member.permissions],
    );
  }
}
