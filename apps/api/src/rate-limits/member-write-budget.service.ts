import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { LOGGER } from '../logging/logger.module';
import type { CostlyWriteKind } from './costly-write.decorator';
import { postgresLimiters } from './postgres-limiter.util';
import { rateLimited } from './rate-limited.error';

/**
 * The per-person budgets of human write routes (SPEC §8b, issue 34 item 5): every write a
 * signed-in person makes spends one of their write budget, and a costly write one of its kind's
 * too; past either, the keys' 429 RATE_LIMITED with `Retry-After`. Counted per user — the
 * person, across every organisation they act for, so creating organisations does not multiply
 * it — in `rate_limits` (rate-limiter-flexible's Postgres store, as sign-in's): one atomic
 * upsert per write, exact across instances. Human writes are few, so the statement is
 * affordable where the keys' hot path is not. A store that fails lets the write through and
 * says so in the log: a broken limiter never locks people out.
 */
@Injectable()
export class MemberWriteBudget {
  private readonly writes: RateLimiterPostgres | undefined;
  private readonly costly: RateLimiterPostgres | undefined;

  constructor(
    dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const limiter = postgresLimiters(dataSource);
    const { memberWrites, memberCostlyWrites } = config.rateLimits;
    this.writes = limiter('member_writes', memberWrites.writes, memberWrites.windowSeconds);
    this.costly = limiter(
      'member_costly_writes',
      memberCostlyWrites.writes,
      memberCostlyWrites.windowSeconds,
    );
  }

  /** Spends one write of `userId` (and one of `costly`'s kind); 429 when either budget is spent. */
  async spend(userId: string, costly: CostlyWriteKind | undefined): Promise<void> {
    const refusals = await Promise.all([
      this.consume(this.writes, userId),
      costly === undefined ? 0 : this.consume(this.costly, `${costly}:${userId}`),
    ]);
    const wait = Math.max(...refusals);
    if (wait > 0) throw rateLimited(wait);
  }

  /** 0 when admitted (or the store cannot be reached), else the ms until the window ends. */
  private async consume(limiter: RateLimiterPostgres | undefined, key: string): Promise<number> {
    if (limiter === undefined) return 0;
    try {
      await limiter.consume(key);
      return 0;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return Math.max(1, outcome.msBeforeNext);
      this.logger.warn({ err: outcome }, 'rate limiter unavailable: member write let through');
      return 0;
    }
  }
}
