import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { ApiError } from '../../http/api-error';
import { isCrossSiteRequest } from '../csrf.util';
import { ApiKeyPrincipal, assertNever, setPrincipal } from '../principal';
import { SessionService } from '../session.service';
import { readSessionCookie } from '../session-cookie.util';
import { ApiKeyAuthGuard } from '../strategies/api-key.strategy';
import { routeAccessOf } from './route-access.guard';

/**
 * Second guard: classifies the caller once, as the route's declaration asks — an API key
 * (through the passport strategy), a signed-in member (session cookie), either of the two on a
 * shared read, or nobody — and
 * stores the principal on the request for the guards and handlers after it.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly ownOrigins: ReadonlySet<string>;

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeyGuard: ApiKeyAuthGuard,
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownOrigins = new Set([config.publicOrigin, ...config.allowedOrigins]);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = routeAccessOf(this.reflector, context);
    const req = context.switchToHttp().getRequest<Request>();
    if (access === undefined) return false;
    switch (access.principal) {
      case 'public':
        setPrincipal(req, { kind: 'anonymous' });
        return true;
      case 'api_key':
        return this.authenticateKey(context, req);
      case 'human':
        this.refuseCrossSite(req);
        setPrincipal(req, { kind: 'anonymous' });
        return true;
      case 'member':
        return this.authenticateMember(context, req);
      case 'api_key_or_member':
        // A request carrying x-api-key is a key request, valid or not; so is one with neither
        // credential (agents keep their exact 401). Otherwise the session cookie decides.
        return req.headers['x-api-key'] !== undefined || readSessionCookie(req) === undefined
          ? this.authenticateKey(context, req)
          : this.authenticateMember(context, req);
      default:
        return assertNever(access);
    }
  }

  private async authenticateKey(context: ExecutionContext, req: Request): Promise<true> {
    // The strategy sets req.user to the key's principal or throws the exact 401.
    await this.apiKeyGuard.canActivate(context);
    setPrincipal(req, (req as unknown as { user: ApiKeyPrincipal }).user);
    return true;
  }

  private async authenticateMember(context: ExecutionContext, req: Request): Promise<true> {
    const token = readSessionCookie(req);
    const member = token === undefined ? undefined : await this.sessions.authenticate(token);
    if (member === undefined) {
      if (token !== undefined) this.sessions.clearCookie(context.switchToHttp().getResponse<Response>());
      throw ApiError.of('SIGN_IN_REQUIRED');
    }
    this.refuseCrossSite(req);
    setPrincipal(req, member);
    return true;
  }

  private refuseCrossSite(req: Request): void {
    if (isCrossSiteRequest(req, this.ownOrigins)) {
      throw new ApiError('CSRF_REJECTED', 'Cross-site request refused.');
    }
  }
}
