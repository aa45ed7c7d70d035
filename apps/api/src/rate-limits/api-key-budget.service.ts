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

  constructor(dataSource: DataSource, @Inject(APP_CONFIG) config: AppConfig, @Inject(LOGGER) logger: Logger) {
    const { requests, windowSeconds } = config.rateLimits.apiKey;
    this.budget = new ApiKeyBudget(requests, windowSeconds, (sql, params) => dataSource.query(sql, params), logger);
  }

  /** Undefined when the budget is off (RATE_LIMIT_API_KEY_REQUESTS=0). */
  admit(organisationId: string): BudgetVerdict | undefined {
    return this.budget.admit(organisationId);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.budget.close();
  }
}
