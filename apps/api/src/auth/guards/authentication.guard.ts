import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest, HttpResponse } from '../../http/platform';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { DomainError } from '@interlock/domain';
import { crossSiteRefusal, isCrossSiteRequest } from '../csrf.util';
import { requestLog } from '../../logging/logger';
import { ORGANISATION_IN_QUERY } from '../decorators/route-access.decorator';
import { ORGANISATION_HEADER, requestedOrganisation } from '../organisation-choice.util';
import {
  ANONYMOUS,
  type ApiKeyPrincipal,
  assertNever,
  setPrincipal,
  setSignInToken,
  signInClient,
} from '../principal';
import { SignInSessionService } from '../sign-in-session.service';
import { SessionCookies } from '../session-cookie.util';
import { SSO_SESSION_MESSAGES } from '../sso-session.util';
import { SSO_REQUIRED_MESSAGES } from '../../sso/sso-requirement.util';
import { ApiKeyAuthenticator } from '../api-key-authenticator';
import { RouteMetadata, routeAccessOf } from './route-access.guard';

export const NO_ORGANISATION_MESSAGE = 'You are not a member of any organisation.';
export const SEVERAL_ORGANISATIONS_MESSAGE = `${ORGANISATION_HEADER} header is required: you are a member of several organisations.`;

/** Routes that also take the organisation from `?organisationId=` (event streams). */
const ORGANISATION_IN_QUERY_ROUTES = new RouteMetadata<boolean>(ORGANISATION_IN_QUERY);

/**
 * Second guard: classifies the caller once, as the route's declaration asks — an API key
 * (`x-api-key`, through `ApiKeyAuthenticator`), a signed-in person acting for one of their organisations
 * (session cookie + the organisation chosen with `x-organisation-id`), a signed-in person
 * acting for none, either a key or a member on a shared read, or nobody — and stores the
 * principal on the request for the guards and handlers after it.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly ownOrigins: ReadonlySet<string>;
  private readonly publicOrigin: string;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyAuthenticator,
    private readonly signIns: SignInSessionService,
    private readonly cookies: SessionCookies,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownOrigins = new Set([config.publicOrigin, ...config.allowedOrigins]);
    this.publicOrigin = config.publicOrigin;
  }

  /**
   * Synchronous where nothing is looked up (public and sign-in routes, a key verified in the last
   * seconds, a key refused by its form); a promise otherwise.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const access = routeAccessOf(this.reflector, context);
    const req = context.getArgByIndex<HttpRequest>(0);
    if (access === undefined) return false;
    switch (access.principal) {
      case 'public':
        setPrincipal(req, ANONYMOUS);
        return true;
      case 'api_key':
        return this.authenticateKey(req);
      case 'human':
        this.refuseCrossSite(req);
        setPrincipal(req, ANONYMOUS);
        return true;
      case 'user':
        return this.authenticateUser(context, req);
      case 'member':
        return this.authenticateMember(context, req);
      case 'api_key_or_member':
        // A request carrying x-api-key is a key request, valid or not; so is one with neither
        // credential (agents keep their exact 401). Otherwise the session cookie decides.
        return req.headers['x-api-key'] !== undefined || this.cookies.read(req) === undefined
          ? this.authenticateKeyOfOrganisation(context, req)
          : this.authenticateMember(context, req);
      default:
        return assertNever(access);
    }
  }

  /**
   * The key's principal, or the exact 401: synchronous for a key verified in the last seconds and
   * for a refusal the key's form decides (thrown here, before any promise: issue 28).
   */
  private authenticateKey(req: HttpRequest): true | Promise<true> {
    const principal = this.keys.authenticate(req);
    if (!(principal instanceof Promise)) return keyAuthenticated(req, principal);
    return principal.then((found) => keyAuthenticated(req, found));
  }

  /**
   * A key on a route shared with members: the key decides the organisation, and an
   * `x-organisation-id` it also sends must be well-formed (400) and name that organisation (404,
   * as a member naming one they are not in).
   */
  private authenticateKeyOfOrganisation(
    context: ExecutionContext,
    req: HttpRequest,
  ): true | Promise<true> {
    const principal = this.keys.authenticate(req);
    if (!(principal instanceof Promise)) return this.keyOfOrganisation(context, req, principal);
    return principal.then((found) => this.keyOfOrganisation(context, req, found));
  }

  private keyOfOrganisation(
    context: ExecutionContext,
    req: HttpRequest,
    principal: ApiKeyPrincipal,
  ): true {
    keyAuthenticated(req, principal);
    const named = requestedOrganisation(req, this.organisationInQuery(context));
    if (named !== undefined && named !== principal.organisationId.toLowerCase())
      throw DomainError.of('NOT_FOUND');
    return true;
  }

  /**
   * Whether the route also takes the organisation from `?organisationId=` (event streams): read
   * once per route, as every key request to a route shared with members asks (issue 28).
   */
  private organisationInQuery(context: ExecutionContext): boolean {
    return ORGANISATION_IN_QUERY_ROUTES.of(this.reflector, context) === true;
  }

  private async authenticateUser(context: ExecutionContext, req: HttpRequest): Promise<true> {
    const token = this.cookies.read(req);
    const user =
      token === undefined
        ? undefined
        : await this.signIns.authenticateUser(token, signInClient(req));
    if (user === undefined) this.signInRequired(context, token);
    this.refuseCrossSite(req);
    setPrincipal(req, user);
    setSignInToken(req, token as string);
    return true;
  }

  /**
   * Signed in (401 otherwise), not cross-site (403), then the organisation: the one the request
   * names, if the person is a current member of it (404 otherwise, as for any id that is not
   * theirs: SPEC §1); or, when it names none, their only one (403 with none, 400 with several).
   */
  private async authenticateMember(context: ExecutionContext, req: HttpRequest): Promise<true> {
    const token = this.cookies.read(req);
    if (token === undefined) this.signInRequired(context, token);
    const queryAllowed = this.organisationInQuery(context);
    let organisationId: string | undefined;
    try {
      organisationId = requestedOrganisation(req, queryAllowed);
    } catch (malformed) {
      // Signing in comes first: a signed-out request hears 401, whatever it asked for.
      if ((await this.signIns.authenticateUser(token)) === undefined)
        this.signInRequired(context, token);
      throw malformed;
    }
    const signIn = await this.signIns.authenticateMember(token, organisationId, signInClient(req));
    setSignInToken(req, token);
    if (signIn === undefined) this.signInRequired(context, token);
    this.refuseCrossSite(req);
    switch (signIn.outcome) {
      case 'member':
        setPrincipal(req, signIn.member);
        return true;
      case 'not_member':
        throw DomainError.of('NOT_FOUND');
      case 'no_organisation':
        throw new DomainError('FORBIDDEN', NO_ORGANISATION_MESSAGE);
      case 'several':
        throw new DomainError('VALIDATION_FAILED', SEVERAL_ORGANISATIONS_MESSAGE);
      case 'sso_only':
        throw new DomainError('FORBIDDEN', SSO_SESSION_MESSAGES.otherOrganisation);
      case 'sso_required':
        throw new DomainError('SSO_REQUIRED', SSO_REQUIRED_MESSAGES.actFor);
      case 'two_factor_required':
        // Only the person's own account routes (Settings → Security) answer until they turn it on.
        throw DomainError.of('TWO_FACTOR_ENROLMENT_REQUIRED');
      default:
        return assertNever(signIn);
    }
  }

  private signInRequired(context: ExecutionContext, token: string | undefined): never {
    if (token !== undefined) this.cookies.clear(context.switchToHttp().getResponse<HttpResponse>());
    throw DomainError.of('SIGN_IN_REQUIRED');
  }

  private refuseCrossSite(req: HttpRequest): void {
    if (isCrossSiteRequest(req, this.ownOrigins)) {
      const message = crossSiteRefusal(req, this.publicOrigin);
      requestLog(req).warn(
        {
          origin: req.headers.origin ?? null,
          secFetchSite: req.headers['sec-fetch-site'] ?? null,
          expectedOrigin: this.publicOrigin,
        },
        message,
      );
      throw new DomainError('CSRF_REJECTED', message);
    }
  }
}

function keyAuthenticated(req: HttpRequest, principal: ApiKeyPrincipal): true {
  setPrincipal(req, principal);
  return true;
}
