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
 * (through the passport strategy), a signed-in member (session cookie), or nobody — and
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
        // The strategy sets req.user to the key's principal or throws the exact 401.
        await this.apiKeyGuard.canActivate(context);
        setPrincipal(req, (req as unknown as { user: ApiKeyPrincipal }).user);
        return true;
      case 'human':
        this.refuseCrossSite(req);
        setPrincipal(req, { kind: 'anonymous' });
        return true;
      case 'member': {
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
      default:
        return assertNever(access);
    }
  }

  private refuseCrossSite(req: Request): void {
    if (isCrossSiteRequest(req, this.ownOrigins)) {
      throw new ApiError('CSRF_REJECTED', 'Cross-site request refused.');
    }
  }
}
