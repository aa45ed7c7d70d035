import { Global, Module } from '@nestjs/common';
import { ApiKeyBudgetService } from './api-key-budget.service';
import { AuthAttemptLimiter } from './auth-attempt-limiter.service';

/** SPEC §8b: sign-in and sign-up throttling, and the API keys' per-organisation budget. */
@Global()
@Module({
  providers: [AuthAttemptLimiter, ApiKeyBudgetService],
  exports: [AuthAttemptLimiter, ApiKeyBudgetService],
})
export class RateLimitsModule {}
