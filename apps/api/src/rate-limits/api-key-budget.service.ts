import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { LOGGER } from '../logging/logger.module';
import { ApiKeyBudget, BudgetVerdict } from './api-key-budget';

/** The process's ApiKeyBudget, configured, and flushed on shutdown. */
@Injectable()
export class ApiKeyBudgetService implements OnApplicationShutdown {
  private readonly budget: ApiKeyBudget;

  constructor(
    dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    const { requests, windowSeconds } = config.rateLimits.apiKey;
    this.budget = new ApiKeyBudget(
      requests,
      windowSeconds,
      (sql, params) => dataSource.query(sql, params),
      logger,
    );
  }

  /** Undefined when the budget is off (RATE_LIMIT_API_KEY_REQUESTS=0). */
  admit(organisationId: string): BudgetVerdict | undefined {
    return this.budget.admit(organisationId);
  }

  /** What `admit` would answer, spending nothing; undefined when the budget is off. */
  peek(organisationId: string): BudgetVerdict | undefined {
    return this.budget.peek(organisationId);
  }

  /** Counts one request already served, even past the budget (the next one is refused). */
  charge(organisationId: string): void {
    this.budget.charge(organisationId);
  }

  /**
   * Spends `count` more of the organisation's budget (a request that carries several calls, such
   * as an MCP batch, after the guard spent one for the request): the first refusal, or the last
   * admission; undefined when the budget is off.
   */
  admitMore(organisationId: string, count: number): BudgetVerdict | undefined {
    let verdict: BudgetVerdict | undefined;
    for (let i = 0; i < count; i++) {
      verdict = this.budget.admit(organisationId);
      if (verdict === undefined || !verdict.allowed) return verdict;
    }
    return verdict;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.budget.close();
  }
}
