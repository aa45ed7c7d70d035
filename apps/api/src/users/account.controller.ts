import { HttpCode, Res } from '@nestjs/common';
import { Body } from '../http/validated-params';
import { ApiAcceptedResponse } from '@nestjs/swagger';
import type { HttpResponse } from '../http/platform';
import { IdParam } from '../http/id-param.pipe';
import { SessionCookies } from '../auth/session-cookie.util';
import { AccountSessionsService } from './account-sessions.service';
import { AccountSignInSessionsResponse } from './dto/sign-in-sessions.response';
import { CurrentUser, UserCaller } from '../auth/decorators/current-principal.decorator';
import type { UserCall } from '../auth/caller';
import { UserRoute } from '../auth/decorators/route-access.decorator';
import { refuseUnderSso } from '../auth/sso-session.util';
import type { UserPrincipal } from '../auth/principal';
import { AuthService } from '../auth/auth.service';
import { AccountResponse } from './dto/account.response';
import { ChangePasswordDto } from './dto/password.dto';
import { PasswordsService } from './passwords.service';
import { EmailVerificationService } from './email-verification.service';
import { ApiController, Operation } from '../openapi/operation.decorator';
import { ChangeEmailDto, EmailChangePendingResponse, UpdateProfileDto } from './dto/profile.dto';
import { EmailChangeService } from './email-change.service';
import { ProfileService } from './profile.service';

@ApiController('api/me', 'auth')
@UserRoute()
export class AccountController {
  constructor(
    private readonly auth: AuthService,
    private readonly passwords: PasswordsService,
    private readonly sessions: AccountSessionsService,
    private readonly cookies: SessionCookies,
    private readonly verification: EmailVerificationService,
    private readonly profile: ProfileService,
    private readonly emailChange: EmailChangeService,
  ) {}

  @Operation.Get('/', 'getMe', {
    summary:
      'The signed-in person and the organisations they are a member of, with their role in each',
    description:
      'Only the organisations this sign-in session acts for: under one made by single sign-on, the organisation that signed them in; under a password one, not those that require single sign-on (where the person is no Owner).',
    ok: AccountResponse,
  })
  me(@CurrentUser() user: UserPrincipal) {
    return this.auth.account(user.userId, user.ssoOrganisationId);
  }

  @Operation.Patch('/', 'updateMyProfile', {
    summary: 'Change your name (Settings → Profile); answers your account as getMe does',
    ok: AccountResponse,
  })
  async updateProfile(@UserCaller() caller: UserCall, @Body() body: UpdateProfileDto) {
    await this.profile.rename(caller, body.name);
    return this.me(caller.user);
  }

  @HttpCode(202)
  @Operation.Post('email', 'changeMyEmail', {
    summary:
      'Ask to change your email address (your password is required): a link goes to the new address, and the change happens when it is opened',
    description:
      'The answer is the same whether or not the new address has an account (that address is told which by email). A few emails per hour (429 beyond them).',
  })
  @ApiAcceptedResponse({ type: EmailChangePendingResponse })
  changeEmail(
    @UserCaller() caller: UserCall,
    @Body() body: ChangeEmailDto,
  ): Promise<EmailChangePendingResponse> {
    refuseUnderSso(caller.user, 'changeEmail');
    return this.emailChange.request(caller, body.email, body.password);
  }

  @Operation.Post('password', 'changePassword', {
    summary:
      'Change your password (the current one is required); your other sign-in sessions end, this one stays',
    noContent: 'Changed.',
  })
  async changePassword(@UserCaller() caller: UserCall, @Body() body: ChangePasswordDto) {
    refuseUnderSso(caller.user, 'changePassword');
    await this.passwords.change(caller, body.currentPassword, body.newPassword);
  }

  @HttpCode(202)
  @Operation.Post('email-verification', 'resendEmailVerification', {
    summary: 'Email a new verification link (single use, 24 hours) to your address',
    description:
      '409 when the address is verified already; a few emails per hour (429 beyond them).',
  })
  @ApiAcceptedResponse({ description: 'A new link is on its way.' })
  async resendEmailVerification(@CurrentUser() user: UserPrincipal): Promise<void> {
    await this.verification.resend(user);
  }

  @Operation.Get('sessions', 'listMySignInSessions', {
    summary:
      'Where you are signed in: your live sign-in sessions, with their latest use, address and browser',
    ok: AccountSignInSessionsResponse,
  })
  listSessions(@CurrentUser() user: UserPrincipal) {
    return this.sessions.list(user);
  }

  @Operation.Post('sessions/revoke-others', 'endMyOtherSignInSessions', {
    summary: 'Sign out everywhere else: end every sign-in session of yours but this one',
    noContent: 'Ended (none is fine).',
  })
  async revokeOthers(@UserCaller() caller: UserCall) {
    refuseUnderSso(caller.user, 'endSessions');
    await this.sessions.revokeOthers(caller);
  }

  @Operation.Delete('sessions/:id', 'endMySignInSession', {
    summary: 'End one of your sign-in sessions (ending this one signs you out here)',
    noContent: 'Ended.',
  })
  async revokeSession(
    @UserCaller() caller: UserCall,
    @IdParam() id: string,
    @Res({ passthrough: true }) res: HttpResponse,
  ) {
    const here = id === caller.user.signInSessionId;
    // Signing out here is always allowed; ending another session is not, under single sign-on.
    if (!here) refuseUnderSso(caller.user, 'endSessions');
    await this.sessions.revoke(caller, id);
    if (here) this.cookies.clear(res);
  }
}
