import { HttpCode, Req, Res } from '@nestjs/common';
import { Body } from '../http/validated-params';
import { ApiOkResponse } from '@nestjs/swagger';
import type { GranterCall, MemberCall } from '../auth/caller';
import {
  ClientIp,
  CurrentMember,
  CurrentUser,
  GranterCaller,
  MemberCaller,
} from '../auth/decorators/current-principal.decorator';
import { HumanRoute, MemberRoute, UserRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal, UserPrincipal } from '../auth/principal';
import { SessionCookies } from '../auth/session-cookie.util';
import { SignInSessionService } from '../auth/sign-in-session.service';
import type { HttpRequest, HttpResponse } from '../http/platform';
import { OrganisationJoinedResponse } from '../users/dto/account.response';
import {
  FinishSsoDto,
  MySingleSignOnResponse,
  PutSsoConnectionDto,
  PutSsoRequirementDto,
  SsoSettingsResponse,
  SsoStartResponse,
  StartSsoDto,
  VerifySsoDomainDto,
} from './dto/sso.dto';
import { SsoLinksService } from './sso-links.service';
import { SsoSettingsService } from './sso-settings.service';
import { SsoSignInService } from './sso-sign-in.service';
import { ApiController, Operation } from '../openapi/operation.decorator';

/** Signing in with an organisation's OpenID provider (SPEC §8f). */
@ApiController('api/auth/sso', 'auth')
@HumanRoute()
export class SsoSignInController {
  constructor(
    private readonly signIn: SsoSignInService,
    private readonly cookies: SessionCookies,
    private readonly sessions: SignInSessionService,
  ) {}

  @Operation.Post('/', 'startSingleSignOn', {
    summary: "Start signing in with the OpenID provider of your address's organisation",
    description:
      "Answers the provider's sign-in page to send the browser to, and sets a short-lived HttpOnly cookie (10 minutes) holding this attempt's state, nonce and PKCE verifier, sealed: only this browser can finish it.",
    ok: SsoStartResponse,
  })
  async start(
    @Body() body: StartSsoDto,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: HttpResponse,
  ) {
    const started = await this.signIn.start(body.email, ip);
    this.cookies.setSsoFlow(res, started.flow, started.expiresAt);
    return { authorizationUrl: started.authorizationUrl };
  }

  @HttpCode(200)
  @Operation.Post('callback', 'finishSingleSignOn', {
    summary:
      'Finish signing in with the query string the provider sent the browser back with; signs in for that organisation only',
  })
  @ApiOkResponse({
    type: OrganisationJoinedResponse,
    description:
      "Signed in: sets the HttpOnly session cookie; the session acts for this organisation only. When the browser's password sign-in session is of the same account (linking it from the dashboard), that session is kept and no cookie is set.",
  })
  async finish(
    @Body() body: FinishSsoDto,
    @Req() req: HttpRequest,
    @ClientIp() ip: string | null,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<OrganisationJoinedResponse> {
    // The attempt is used up whatever happens: a refused answer starts again.
    this.cookies.clearSsoFlow(res);
    // A password sign-in session of this browser proves an existing account is the person's.
    const token = this.cookies.read(req);
    const current = token === undefined ? undefined : await this.sessions.authenticateUser(token);
    const finished = await this.signIn.finish(
      this.cookies.readSsoFlow(req),
      body.callbackQuery,
      ip,
      current !== undefined && current.ssoOrganisationId === null ? current.userId : null,
    );
    if (finished.session !== undefined)
      this.cookies.set(res, finished.session.token, finished.session.expiresAt);
    return finished.body;
  }
}

/** Organisation → Single sign-on: the organisation's OpenID provider (SPEC §8f). */
@ApiController('api/organisation/sso', 'organisation')
@MemberRoute('member.manage')
export class SsoSettingsController {
  constructor(private readonly settings: SsoSettingsService) {}

  @Operation.Get('/', 'getSingleSignOn', {
    summary:
      "The organisation's OpenID provider (never its secret), and the redirect URI to register with it",
    ok: SsoSettingsResponse,
  })
  get(@CurrentMember() member: MemberPrincipal) {
    return this.settings.get(member.organisationId);
  }

  @Operation.Put('/', 'putSingleSignOn', {
    summary:
      "Connect or change the organisation's OpenID provider (its discovery document is read first)",
    ok: SsoSettingsResponse,
  })
  put(@GranterCaller() caller: GranterCall, @Body() body: PutSsoConnectionDto) {
    return this.settings.put({ connection: body, ...caller });
  }

  @Operation.Put('requirement', 'putSingleSignOnRequirement', {
    summary:
      'Require single sign-on: password sign-in no longer acts for the organisation (Owners keep it as an audited break-glass path)',
    description:
      'Turning it on needs a provider that has signed someone in with its current issuer and client id (`verifiedAt`). API keys are not affected.',
    ok: SsoSettingsResponse,
  })
  putRequirement(@MemberCaller() caller: MemberCall, @Body() body: PutSsoRequirementDto) {
    return this.settings.setRequirement(caller, body.requireSso);
  }

  @Operation.Post('domains/verify', 'verifySingleSignOnDomain', {
    summary:
      "Prove an email domain: look up its TXT record `_interlock-challenge.<domain>` now; found with this organisation's token, the domain signs people in",
    description:
      'Until a domain is verified it routes no sign-in, links no existing account and provisions nobody. A domain verified already answers as it is; a domain another organisation has verified cannot be.',
    ok: SsoSettingsResponse,
  })
  verifyDomain(@MemberCaller() caller: MemberCall, @Body() body: VerifySsoDomainDto) {
    return this.settings.verifyDomain(caller, body.domain);
  }

  @Operation.Delete('/', 'deleteSingleSignOn', {
    summary:
      'Disconnect the OpenID provider: its people sign in with passwords (a reset sets one); sessions it made end at their time',
    noContent: 'Disconnected.',
  })
  async remove(@MemberCaller() caller: MemberCall) {
    await this.settings.remove(caller);
  }
}

/** Settings → Security: where single sign-on signs the person in, and whether it is linked (SPEC §8f). */
@ApiController('api/me/single-sign-on', 'auth')
export class SsoAccountController {
  constructor(private readonly links: SsoLinksService) {}

  @UserRoute()
  @Operation.Get('/', 'listMySingleSignOn', {
    summary:
      'Your organisations whose single sign-on signs in your address, and whether your account is linked to it',
    description:
      'To link, start single sign-on (startSingleSignOn with your address) in the browser that holds your password sign-in session: the callback links the account and keeps that session.',
    ok: MySingleSignOnResponse,
  })
  list(@CurrentUser() user: UserPrincipal) {
    return this.links.of(user);
  }
}
