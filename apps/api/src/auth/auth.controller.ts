import { HttpCode, Res } from '@nestjs/common';
import { Body } from '../http/validated-params';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
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
import { CompleteSignUpDto, SignUpDto } from './dto/sign-up.dto';
import { SignUpPendingResponse } from './dto/sign-up-pending.response';
import { PasswordsService } from '../users/passwords.service';
import { PasswordResetConfirmDto, PasswordResetRequestDto } from '../users/dto/password.dto';
import { VerifyEmailDto } from '../users/dto/email-verification.dto';
import { EmailVerificationService } from '../users/email-verification.service';
import { ApiController, Operation } from '../openapi/operation.decorator';
import { ConfirmEmailChangeDto, UndoEmailChangeDto } from '../users/dto/profile.dto';
import { EmailChangeService } from '../users/email-change.service';

/**
 * Signing up and in, and the emailed links people open whether or not they are signed in: for
 * people not signed in (`@HumanRoute`), but for signing out and the sign-in session's description.
 */
@ApiController('api/auth', 'auth')
@HumanRoute()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly signIns: SignInSessionService,
    private readonly cookies: SessionCookies,
    private readonly passwords: PasswordsService,
    private readonly verification: EmailVerificationService,
    private readonly emailChange: EmailChangeService,
  ) {}

  @Operation.Post('sign-up', 'signUp', {
    summary: 'Create an account and an organisation (Free plan) you own, and sign in',
    description:
      'With SIGN_UP_CONFIRMATION=link (the default where email addresses are verified) the answer is 202 for every address, taken or not: a link is emailed that finishes the sign-up (completeSignUp), or, when the address has an account, an email saying so. With instant, 201 signs you in at once (a taken address: 409).',
  })
  @ApiCreatedResponse({
    type: OrganisationJoinedResponse,
    description: 'Signed in (SIGN_UP_CONFIRMATION=instant): sets the HttpOnly session cookie.',
  })
  @ApiAcceptedResponse({
    type: SignUpPendingResponse,
    description:
      'A link was emailed to the address (SIGN_UP_CONFIRMATION=link); no account exists until it is opened.',
  })
  async signUp(
    @Body() body: SignUpDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<OrganisationJoinedResponse | Response> {
    const outcome = await this.auth.signUp({
      email: body.email,
      password: body.password,
      name: body.name,
      organisationName: body.organisationName,
      ip,
    });
    if (outcome.kind === 'link_sent') {
      // A web Response's status wins over the route's 201, on either adapter.
      return new Response(JSON.stringify(outcome.body), {
        status: 202,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      });
    }
    this.cookies.set(res, outcome.token, outcome.expiresAt);
    return outcome.body;
  }

  @Operation.Post('sign-up/complete', 'completeSignUp', {
    summary:
      "Finish a sign-up with its emailed link's token: the account (address verified), its organisation, and a sign-in session",
  })
  @ApiCreatedResponse({
    type: OrganisationJoinedResponse,
    description: 'Signed in: sets the HttpOnly session cookie.',
  })
  async completeSignUp(
    @Body() body: CompleteSignUpDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<OrganisationJoinedResponse> {
    const signedIn = await this.auth.completeSignUp(body.token, ip);
    this.cookies.set(res, signedIn.token, signedIn.expiresAt);
    return signedIn.body;
  }

  @HttpCode(200)
  @Operation.Post('sign-in', 'signIn', { summary: 'Sign in with email and password' })
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

  @HttpCode(202)
  @Operation.Post('password-reset', 'requestPasswordReset', {
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

  @Operation.Post('password-reset/confirm', 'confirmPasswordReset', {
    summary:
      "Set a new password with a reset link's token; every sign-in session of the account ends",
    noContent: 'The password is changed; sign in with it.',
  })
  async confirmPasswordReset(@Body() body: PasswordResetConfirmDto, @ClientIp() ip: string | null) {
    await this.passwords.confirmReset(body.token, body.password, ip);
  }

  @Operation.Post('verify-email', 'verifyEmail', {
    summary:
      "Verify your email address with a verification link's token (works signed in or not, in any browser)",
    noContent: 'The address is verified (or already was).',
  })
  async verifyEmail(@Body() body: VerifyEmailDto, @ClientIp() ip: string | null) {
    await this.verification.verify(body.token, ip);
  }

  @Operation.Post('email-change/confirm', 'confirmEmailChange', {
    summary:
      'Change your email address with the link emailed to the new one (works signed in or not, in any browser)',
    noContent:
      'The address is changed and verified; the old address is told, with a link that undoes it.',
  })
  async confirmEmailChange(@Body() body: ConfirmEmailChangeDto, @ClientIp() ip: string | null) {
    await this.emailChange.confirm(body.token, ip);
  }

  @Operation.Post('email-change/undo', 'undoEmailChange', {
    summary:
      "This wasn't me: the link emailed to the old address gives it back, sets a new password and ends every sign-in session",
    noContent:
      'The old address is back; every sign-in session ended: sign in with the new password.',
  })
  async undoEmailChange(@Body() body: UndoEmailChangeDto, @ClientIp() ip: string | null) {
    await this.emailChange.undo(body.token, body.password, ip);
  }

  @UserRoute()
  @Operation.Post('sign-out', 'signOut', {
    summary: 'End this sign-in session (for every organisation)',
    noContent: 'Signed out; the cookie is cleared.',
  })
  async signOut(@CurrentUser() user: UserPrincipal, @Res({ passthrough: true }) res: HttpResponse) {
    await this.signIns.revoke(user.signInSessionId);
    this.cookies.clear(res);
  }

  @MemberRoute()
  @Operation.Get('session', 'getSignInSession', {
    summary:
      'Who is signed in, as a member of the organisation this request acts for: role and permissions',
    ok: SignInSessionResponse,
  })
  signInSession(@CurrentMember() member: MemberPrincipal) {
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
      member.signedInWith,
    );
  }
}
