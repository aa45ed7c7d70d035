import { Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { periodicJobProvider } from '../jobs/periodic-job.provider';
import { LOGGER } from '../logging/logger.module';
import { ApiKeyBudgetService } from './api-key-budget.service';
import { AuthAttemptLimiter } from './auth-attempt-limiter.service';
import { MemberWriteBudget } from './member-write-budget.service';
import { RateLimitSweepJob } from './rate-limit-sweep.job';

/** SPEC §8b: sign-in and sign-up throttling, the API keys' per-organisation budget, and people's write budgets. */
@Global()
@Module({
  providers: [
    AuthAttemptLimiter,
    ApiKeyBudgetService,
    MemberWriteBudget,
    periodicJobProvider(
      RateLimitSweepJob,
      [DataSource, LOGGER],
      (dataSource: DataSource, logger: Logger) => new RateLimitSweepJob(dataSource, logger),
    ),
  ],
  exports: [AuthAttemptLimiter, ApiKeyBudgetService, MemberWriteBudget],
})
export class RateLimitsModule {}
