import { DomainError, type Plan } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig, PlanAllowances } from '../config/app-config';
import type { Statement } from '../database/combined-statement';
import type { Queryable } from '../database/query-rows.util';
import {
  activeSessionsExhaustedMessage,
  agentHoursExhaustedMessage,
  type ExhaustedQuota,
  messagesExhaustedMessage,
  sessionStorageExhaustedMessage,
} from './allowance-messages';
import { AgentHoursLeft, AllowancesRepository, type PlanLimits } from './allowances.repository';
import type { UsageSummary } from './dto/usage-summary.response';

/**
 * Monthly allowances (SPEC §8), per UTC calendar month, from configuration. Interrupt messages
 * are a counter taken atomically in the transaction that opens the interrupt; agent hours are
 * the month's summed session time, kept as a running total in `agent_hours_totals` that
 * starting a session and every append check (an append in its own statement: see
 * `agentHoursLeft`). The rules; the tables are `AllowancesRepository`'s.
 */
@Injectable()
export class AllowancesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly allowances: AllowancesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Counts one interrupt message, in the caller's transaction (rolled back with it), or answers
   * 402 when the month's allowance is spent. One conditional upsert: concurrent callers queue
   * on the month's row and each sees the count the previous one committed, so at most the
   * allowance ever succeeds. The plan is read in the same statement, so an upgrade counts at once.
   * `alongside`: the caller's statements sent with the count (its audit entry: one round trip),
   * which a refusal's rollback undoes with the rest.
   */
  async consumeMessage(
    tx: Queryable,
    organisationId: string,
    alongside: readonly Statement[] = [],
  ): Promise<void> {
    if (await this.allowances.countMessage(tx, organisationId, this.limits('messages'), alongside))
      return;
    const row = await this.allowances.planAndRenewal(tx, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    throw new DomainError(
      'MESSAGES_ALLOWANCE_EXHAUSTED',
      messagesExhaustedMessage({ ...this.quota('messages', row.plan), renewsOn: row.renews_on }),
    );
  }

  /**
   * For a statement of the sessions' owner: the organisation with its running total to join, and
   * a condition true while the month's agent hours are not spent (see AllowancesRepository).
   */
  agentHoursLeft(organisationParam: string, firstParam: number): AgentHoursLeft {
    return this.allowances.agentHoursLeft(organisationParam, firstParam, this.limits('agentHours'));
  }

  /**
   * 402 when the month's agent hours are spent: used to start a session, and to say why an
   * append was refused. The running total makes this one primary-key read.
   */
  async assertAgentHoursLeft(db: Queryable, organisationId: string): Promise<void> {
    const row = await this.allowances.agentHours(db, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    this.refuseSpentHours(row);
  }

  /**
   * Before a session starts, in its transaction: 402 when the month's agent hours are spent, or
   * when the plan's active sessions are all open (SPEC §8). The organisation's running totals stay
   * locked until the transaction ends, so concurrent starts never open more than the plan allows.
   */
  async assertSessionStartAllowed(tx: Queryable, organisationId: string): Promise<void> {
    const row = await this.allowances.lockSessionStart(tx, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    this.refuseSpentHours(row);
    const quota = this.quota('activeSessions', row.plan);
    if (row.active >= quota.included) {
      throw new DomainError('ACTIVE_SESSIONS_EXHAUSTED', activeSessionsExhaustedMessage(quota));
    }
  }

  /**
   * Adds an append's bytes (the UTF-8 bytes of its messages' content) to the organisation's
   * stored total, in the append's transaction (rolled back with it), or answers 402 when that
   * would pass the plan's quota (SPEC §8). Exact under concurrent appends: see the repository.
   */
  async consumeSessionStorage(tx: Queryable, organisationId: string, bytes: number): Promise<void> {
    const limits = this.limits('sessionMessageBytes');
    if (await this.allowances.addSessionBytes(tx, organisationId, bytes, limits)) return;
    const row = await this.allowances.sessionHoldings(tx, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    throw new DomainError(
      'SESSION_STORAGE_EXHAUSTED',
      sessionStorageExhaustedMessage({
        ...this.quota('sessionMessageBytes', row.plan),
        retentionMs: this.config.sessions.messageRetentionMs,
      }),
    );
  }

  private refuseSpentHours(row: { plan: Plan; seconds: number; renews_on: string }): void {
    const quota = this.quota('agentHours', row.plan);
    if (row.seconds >= quota.included * 3600) {
      throw new DomainError(
        'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
        agentHoursExhaustedMessage({ ...quota, renewsOn: row.renews_on }),
      );
    }
  }

  /** What each plan includes of `allowance`, as the repository's statements compare it. */
  private limits(allowance: keyof PlanAllowances): PlanLimits {
    const { free, pro } = this.config.plans;
    return { free: free[allowance], pro: pro[allowance] };
  }

  /** For a 402's message: what `plan` includes of `allowance`, and what Pro would. */
  private quota(allowance: keyof PlanAllowances, plan: Plan): ExhaustedQuota {
    const { plans } = this.config;
    return { plan, included: plans[plan][allowance], proIncludes: plans.pro[allowance] };
  }

  /** This month's use against the plan, and what the organisation holds now, for the billing page. */
  async summary(organisationId: string): Promise<UsageSummary> {
    const [row, holdings] = await Promise.all([
      this.allowances.usage(this.dataSource, organisationId),
      this.allowances.sessionHoldings(this.dataSource, organisationId),
    ]);
    if (row === undefined || holdings === undefined) throw DomainError.of('NOT_FOUND');
    const plan = this.config.plans[row.plan];
    return {
      month: row.month,
      renewsAt: row.renews_at.toISOString(),
      messages: { used: row.messages, included: plan.messages },
      agentHours: { used: Math.round((row.seconds / 3600) * 100) / 100, included: plan.agentHours },
      sessionMessageBytes: { used: holdings.bytes, included: plan.sessionMessageBytes },
      activeSessions: { used: holdings.active, included: plan.activeSessions },
      sessionMessageRetentionSeconds: Math.round(this.config.sessions.messageRetentionMs / 1000),
    };
  }
}
