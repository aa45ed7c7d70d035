import { DomainError } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Plan } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { queryRows, Queryable } from '../database/query-rows.util';
import { agentHoursExhaustedMessage, messagesExhaustedMessage } from './allowance-messages';
import type { UsageSummary } from './dto/usage-summary.response';

/** The current UTC calendar month, in the database's clock: its first instant and the next month's. */
const MONTH = `utc_month_start(now()) AS start, utc_next_month_start(utc_month_start(now())) AS next`;

/**
 * Seconds of the organisation's agent time this month, sessions still open counted up to now,
 * from its running total `a` (LEFT JOINed: no row is no time). See migration 1795371981912.
 */
const AGENT_SECONDS_USED = `agent_seconds_used(a.month_start, a.ended_seconds, a.open_sessions, a.open_offset_seconds, now())`;

/**
 * Monthly allowances (SPEC §8), per UTC calendar month, from configuration. Interrupt messages
 * are a counter taken atomically in the transaction that opens the interrupt; agent hours are
 * the month's summed session time, kept as a running total in `agent_hours_totals` that
 * starting a session and every append check (an append in its own statement: see
 * `agentHoursLeftCondition`).
 */
@Injectable()
export class AllowancesService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Counts one interrupt message, in the caller's transaction (rolled back with it), or answers
   * 402 when the month's allowance is spent. One conditional upsert: concurrent callers queue
   * on the month's row and each sees the count the previous one committed, so at most the
   * allowance ever succeeds. The plan is read in the same statement, so an upgrade counts at once.
   */
  async consumeMessage(tx: Queryable, organisationId: string): Promise<void> {
    const limit = `(SELECT CASE o.plan WHEN 'pro' THEN $3::int ELSE $2::int END FROM organisations o WHERE o.id = $1::uuid)`;
    const counted = await queryRows<{ messages: number }>(
      tx,
      `INSERT INTO usage_months AS u (organisation_id, month, messages)
       SELECT $1::uuid, (date_trunc('month', now() AT TIME ZONE 'UTC'))::date, 1 WHERE ${limit} > 0
       ON CONFLICT (organisation_id, month) DO UPDATE SET messages = u.messages + 1 WHERE u.messages < ${limit}
       RETURNING u.messages`,
      [organisationId, this.config.plans.free.messages, this.config.plans.pro.messages],
    );
    if (counted.length === 0) {
      const { plan, renewsOn } = await this.planAndRenewal(tx, organisationId);
      throw new DomainError(
        'MESSAGES_ALLOWANCE_EXHAUSTED',
        messagesExhaustedMessage({
          plan,
          included: this.config.plans[plan].messages,
          renewsOn,
          proIncludes: this.config.plans.pro.messages,
        }),
      );
    }
  }

  /**
   * A condition on the organisations row `o`, for a statement that also LEFT JOINs the
   * organisation's `agent_hours_totals` as `a`: true while the month's agent hours are not spent.
   * `params` are appended to the statement's parameters (the plans' allowances, in hours).
   */
  agentHoursLeftCondition(firstParam: number): { sql: string; params: number[] } {
    return {
      sql: `${AGENT_SECONDS_USED} < 3600 * (CASE o.plan WHEN 'pro' THEN $${firstParam + 1}::int ELSE $${firstParam}::int END)`,
      params: [this.config.plans.free.agentHours, this.config.plans.pro.agentHours],
    };
  }

  /**
   * 402 when the month's agent hours are spent: used to start a session, and to say why an
   * append was refused. The running total makes this one primary-key read.
   */
  async assertAgentHoursLeft(db: Queryable, organisationId: string): Promise<void> {
    const [row] = await queryRows<{ plan: Plan; seconds: number; renews_on: string }>(
      db,
      `WITH m AS (SELECT ${MONTH})
       SELECT o.plan, ${AGENT_SECONDS_USED} AS seconds, to_char(m.next AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS renews_on
         FROM organisations o CROSS JOIN m LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id
        WHERE o.id = $1`,
      [organisationId],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    const included = this.config.plans[row.plan].agentHours;
    if (row.seconds >= included * 3600) {
      throw new DomainError(
        'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
        agentHoursExhaustedMessage({
          plan: row.plan,
          included,
          renewsOn: row.renews_on,
          proIncludes: this.config.plans.pro.agentHours,
        }),
      );
    }
  }

  /** This month's use against the plan, for the organisation page. */
  async summary(organisationId: string): Promise<UsageSummary> {
    const [row] = await queryRows<{ plan: Plan; month: string; renews_at: Date; messages: number; seconds: number }>(
      this.dataSource,
      `WITH m AS (SELECT ${MONTH})
       SELECT o.plan, to_char(m.start AT TIME ZONE 'UTC', 'YYYY-MM') AS month, m.next AS renews_at,
              COALESCE((SELECT u.messages FROM usage_months u
                         WHERE u.organisation_id = o.id AND u.month = (m.start AT TIME ZONE 'UTC')::date), 0) AS messages,
              ${AGENT_SECONDS_USED} AS seconds
         FROM organisations o CROSS JOIN m LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id
        WHERE o.id = $1`,
      [organisationId],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    const plan = this.config.plans[row.plan];
    return {
      month: row.month,
      renewsAt: row.renews_at.toISOString(),
      messages: { used: row.messages, included: plan.messages },
      agentHours: { used: Math.round((row.seconds / 3600) * 100) / 100, included: plan.agentHours },
    };
  }

  private async planAndRenewal(db: Queryable, organisationId: string): Promise<{ plan: Plan; renewsOn: string }> {
    const [row] = await queryRows<{ plan: Plan; renews_on: string }>(
      db,
      `SELECT plan, to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month', 'YYYY-MM-DD') AS renews_on
         FROM organisations WHERE id = $1`,
      [organisationId],
    );
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return { plan: row.plan, renewsOn: row.renews_on };
  }
}
