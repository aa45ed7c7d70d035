import { Injectable } from '@nestjs/common';
import type { Plan } from '@interlock/domain';
import { combineStatements, type Statement } from '../database/combined-statement';
import { type Queryable, queryRows } from '../database/query-rows.util';
// The plan is the organisation owner's column: read through its fragment, in the same statement
// as the counters (see organisation-plan-query.util.ts for why not a second call).
import { organisationPlanRow } from '../organisation/organisation-plan-query.util';

/** The current UTC calendar month, in the database's clock: its first instant and the next month's. */
const MONTH = `utc_month_start(now()) AS start, utc_next_month_start(utc_month_start(now())) AS next`;

/**
 * Seconds of the organisation's agent time this month, sessions still open counted up to now,
 * from its running total `a` (LEFT JOINed: no row is no time). See migration 1795371981912.
 */
const AGENT_SECONDS_USED = `agent_seconds_used(a.month_start, a.ended_seconds, a.open_sessions, a.open_offset_seconds, now())`;

/** The month's allowance of messages of the organisation's plan ($2 free, $3 pro). */
const MESSAGES_LIMIT = `(SELECT CASE o.plan WHEN 'pro' THEN $3::int ELSE $2::int END FROM ${organisationPlanRow('o', '$1::uuid')})`;

/**
 * One message counted in the month's row unless the plan's allowance is reached ($1 the
 * organisation): the month's count when counted, no row when refused.
 */
const COUNT_MESSAGE = `INSERT INTO usage_months AS u (organisation_id, month, messages)
       SELECT $1::uuid, (date_trunc('month', now() AT TIME ZONE 'UTC'))::date, 1 WHERE ${MESSAGES_LIMIT} > 0
       ON CONFLICT (organisation_id, month) DO UPDATE SET messages = u.messages + 1 WHERE u.messages < ${MESSAGES_LIMIT}
       RETURNING u.messages`;

/** What each plan includes, as the statements compare it (config.plans). */
export interface PlanLimits {
  free: number;
  pro: number;
}

/**
 * A condition another module's statement adds to stay within the month's agent hours: `from` is
 * the organisation (as `o`) with its running total (as `a`) for the statement's FROM, `where`
 * is true while the hours are not spent, `params` are appended to the statement's parameters.
 */
export interface AgentHoursLeft {
  from: string;
  where: string;
  params: number[];
}

/**
 * The `usage_months` and `agent_hours_totals` tables' one owner. Every method takes the handle to
 * run on (the caller's transaction, or the data source) and the organisation first.
 */
@Injectable()
export class AllowancesRepository {
  /**
   * Counts one message in the month's row unless the plan's allowance is reached: one
   * conditional upsert (concurrent callers queue on the row). False when refused, and then the
   * caller rolls back whatever of `alongside` ran. `alongside`: the caller's statements of the
   * same change, whose answers it does not read and which neither read nor write the month's
   * row (a new interrupt's audit entry and outbox rows), sent with it.
   */
  async countMessage(
    db: Queryable,
    organisationId: string,
    messages: PlanLimits,
    alongside: readonly Statement[] = [],
  ): Promise<boolean> {
    const count: Statement = {
      text: COUNT_MESSAGE,
      values: [organisationId, messages.free, messages.pro],
    };
    // The caller's statements and the count as one when they can be: the count is the statement
    // they lead to (its rows answer), so it runs first and their WITH entries after it.
    const one = alongside.length === 0 ? count : combineStatements([...alongside, count]);
    if (one !== undefined)
      return (await queryRows<{ messages: number }>(db, one.text, [...one.values])).length > 0;
    // Else each on its own in the same order: the count first, so the month's row is locked
    // before anything they lock (the audit chain's head) — as in the one statement, so two opens
    // of one organisation, one on each path, never wait for each other's lock in turn. A refusal
    // sends none of them.
    const counted =
      (await queryRows<{ messages: number }>(db, count.text, [...count.values])).length > 0;
    if (counted)
      for (const statement of alongside) await db.query(statement.text, [...statement.values]);
    return counted;
  }

  /** The organisation's plan and the first day of next month (UTC, YYYY-MM-DD); undefined: no such organisation. */
  async planAndRenewal(
    db: Queryable,
    organisationId: string,
  ): Promise<{ plan: Plan; renews_on: string } | undefined> {
    const [row] = await queryRows<{ plan: Plan; renews_on: string }>(
      db,
      `SELECT o.plan, to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month', 'YYYY-MM-DD') AS renews_on
         FROM ${organisationPlanRow('o', '$1')}`,
      [organisationId],
    );
    return row;
  }

  /** The month's agent seconds so far with the plan and the renewal day: one primary-key read of each table. */
  async agentHours(
    db: Queryable,
    organisationId: string,
  ): Promise<{ plan: Plan; seconds: number; renews_on: string } | undefined> {
    const [row] = await queryRows<{ plan: Plan; seconds: number; renews_on: string }>(
      db,
      `WITH m AS (SELECT ${MONTH})
       SELECT o.plan, ${AGENT_SECONDS_USED} AS seconds, to_char(m.next AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS renews_on
         FROM ${organisationPlanRow('o', '$1')} CROSS JOIN m LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id`,
      [organisationId],
    );
    return row;
  }

  /** This month's use: messages counted and agent seconds, with the plan and the month. */
  async usage(
    db: Queryable,
    organisationId: string,
  ): Promise<
    { plan: Plan; month: string; renews_at: Date; messages: number; seconds: number } | undefined
  > {
    const [row] = await queryRows<{
      plan: Plan;
      month: string;
      renews_at: Date;
      messages: number;
      seconds: number;
    }>(
      db,
      `WITH m AS (SELECT ${MONTH})
       SELECT o.plan, to_char(m.start AT TIME ZONE 'UTC', 'YYYY-MM') AS month, m.next AS renews_at,
              COALESCE((SELECT u.messages FROM usage_months u
                         WHERE u.organisation_id = o.id AND u.month = (m.start AT TIME ZONE 'UTC')::date), 0) AS messages,
              ${AGENT_SECONDS_USED} AS seconds
         FROM ${organisationPlanRow('o', '$1')} CROSS JOIN m LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id`,
      [organisationId],
    );
    return row;
  }

  /**
   * Adds `bytes` of session-message content to the organisation's stored total unless that would
   * pass the plan's quota: one conditional upsert, so concurrent appends queue on the row and
   * each compares against the total the one before committed. False when refused.
   */
  async addSessionBytes(
    db: Queryable,
    organisationId: string,
    bytes: number,
    quota: PlanLimits,
  ): Promise<boolean> {
    const limit = `(SELECT CASE o.plan WHEN 'pro' THEN $4::bigint ELSE $3::bigint END FROM ${organisationPlanRow('o', '$1::uuid')})`;
    const added = await queryRows<unknown>(
      db,
      `INSERT INTO session_storage_totals AS t (organisation_id, message_bytes)
       SELECT $1::uuid, $2::bigint WHERE $2::bigint <= ${limit}
       ON CONFLICT (organisation_id) DO UPDATE SET message_bytes = t.message_bytes + excluded.message_bytes
        WHERE t.message_bytes + excluded.message_bytes <= ${limit}
       RETURNING 1`,
      [organisationId, bytes, quota.free, quota.pro],
    );
    return added.length > 0;
  }

  /**
   * The organisation's plan, its stored session-message bytes and its active sessions, for the
   * quotas' refusals and the usage summary.
   */
  async sessionHoldings(
    db: Queryable,
    organisationId: string,
  ): Promise<{ plan: Plan; bytes: number; active: number } | undefined> {
    const [row] = await queryRows<{ plan: Plan; bytes: number; active: number }>(
      db,
      `SELECT o.plan, COALESCE(st.message_bytes, 0)::float8 AS bytes, COALESCE(a.open_sessions, 0) AS active
         FROM ${organisationPlanRow('o', '$1')}
         LEFT JOIN session_storage_totals st ON st.organisation_id = o.id
         LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id`,
      [organisationId],
    );
    return row;
  }

  /**
   * For a session about to start: the month's agent seconds, the sessions active now and the plan,
   * with the organisation's running totals locked until `tx` ends (the trigger on `sessions` locks
   * them anyway when the session is inserted), so concurrent starts count each other and at most
   * the plan's active sessions exist. The totals' row is made first when the organisation has none.
   */
  async lockSessionStart(
    tx: Queryable,
    organisationId: string,
  ): Promise<{ plan: Plan; seconds: number; active: number; renews_on: string } | undefined> {
    const read = () =>
      queryRows<{ plan: Plan; seconds: number; active: number; renews_on: string }>(
        tx,
        `WITH m AS (SELECT ${MONTH})
         SELECT o.plan, ${AGENT_SECONDS_USED} AS seconds, a.open_sessions AS active,
                to_char(m.next AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS renews_on
           FROM ${organisationPlanRow('o', '$1')} CROSS JOIN m JOIN agent_hours_totals a ON a.organisation_id = o.id
            FOR UPDATE OF a`,
        [organisationId],
      );
    let [row] = await read();
    if (row === undefined) {
      await tx.query(
        `INSERT INTO agent_hours_totals (organisation_id, month_start)
         SELECT id, utc_month_start(now()) FROM ${organisationPlanRow('o', '$1')}
         ON CONFLICT (organisation_id) DO NOTHING`,
        [organisationId],
      );
      [row] = await read();
    }
    return row;
  }

  /**
   * The fragment a statement of the sessions' owner composes to refuse an append once the
   * month's agent hours are spent, in the append's own statement (no extra round trip).
   * `organisationParam` is the statement's parameter holding the organisation id; the plans'
   * allowances (in hours) become parameters `firstParam` and `firstParam + 1`.
   */
  agentHoursLeft(
    organisationParam: string,
    firstParam: number,
    agentHours: PlanLimits,
  ): AgentHoursLeft {
    return {
      from: `${organisationPlanRow('o', organisationParam)} LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id`,
      where: `${AGENT_SECONDS_USED} < 3600 * (CASE o.plan WHEN 'pro' THEN $${firstParam + 1}::int ELSE $${firstParam}::int END)`,
      params: [agentHours.free, agentHours.pro],
    };
  }
}
