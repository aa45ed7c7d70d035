import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { RequestHygieneGuard } from '../http/request-hygiene.guard';
import { AuthenticationGuard } from './guards/authentication.guard';
import { PermissionGuard } from './guards/permission.guard';
import { PlanGuard } from './guards/plan.guard';
import { MemberWriteBudgetGuard } from './guards/member-write-budget.guard';
import { RateLimitGuard } from './guards/rate-limit.guard';
import { RouteAccessGuard } from './guards/route-access.guard';
import { SessionCookies } from './session-cookie.util';
import { SignInSessionService } from './sign-in-session.service';
import { SignInSessionsRepository } from './sign-in-sessions.repository';
import { RequestGuards } from './guards/request-guards';
import { ApiKeyAuthenticator } from './api-key-authenticator';

/**
 * The global guard (`RequestGuards`) and the checks it runs, in order (SPEC §4 check order):
 * route declared and humans-only → caller classified (key, or session cookie and organisation)
 * → a key's request budget (§8b) → plan → permission → the request's hygiene (415, JSON
 * Postgres cannot store, a body where none is taken: SPEC §4 puts input after the key and the
 * plan). Deny by default.
 */
@Global()
@Module({
  imports: [ApiKeysModule],
  providers: [
    SignInSessionService,
    SignInSessionsRepository,
    SessionCookies,
    ApiKeyAuthenticator,
    RouteAccessGuard,
    AuthenticationGuard,
    RateLimitGuard,
    MemberWriteBudgetGuard,
    PlanGuard,
    PermissionGuard,
    RequestHygieneGuard,
    { provide: APP_GUARD, useClass: RequestGuards },
  ],
  exports: [SignInSessionService, SessionCookies],
})
export class AuthModule {}
