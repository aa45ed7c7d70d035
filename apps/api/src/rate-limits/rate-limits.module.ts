import { Global, Module } from '@nestjs/common';
import { ApiKeyBudgetService } from './api-key-budget.service';
import { AuthAttemptLimiter } from './auth-attempt-limiter.service';
import { MemberWriteBudget } from './member-write-budget.service';

/** SPEC §8b: sign-in and sign-up throttling, the API keys' per-organisation budget, and people's write budgets. */
@Global()
@Module({
  providers: [AuthAttemptLimiter, ApiKeyBudgetService, MemberWriteBudget],
  exports: [AuthAttemptLimiter, ApiKeyBudgetService, MemberWriteBudget],
})
export class RateLimitsModule {}
