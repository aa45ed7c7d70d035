import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthenticationGuard } from './guards/authentication.guard';
import { PermissionGuard } from './guards/permission.guard';
import { PlanGuard } from './guards/plan.guard';
import { RateLimitGuard } from './guards/rate-limit.guard';
import { RouteAccessGuard } from './guards/route-access.guard';
import { SignInSessionService } from './sign-in-session.service';
import { ApiKeyAuthGuard, ApiKeyStrategy } from './strategies/api-key.strategy';

/**
 * The global guards, in order (SPEC §4 check order): route declared and humans-only → caller
 * classified (key, or session cookie and organisation) → a key's request budget (§8b) → plan →
 * permission. Deny by default.
 */
@Global()
@Module({
  imports: [PassportModule, ApiKeysModule],
  providers: [
    SignInSessionService,
    ApiKeyStrategy,
    ApiKeyAuthGuard,
    { provide: APP_GUARD, useClass: RouteAccessGuard },
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: PlanGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [SignInSessionService],
})
export class AuthModule {}
