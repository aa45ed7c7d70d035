import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent hours as a running total per organisation (issue 17, item 1), so that appends check the
 * allowance in the statement they already run instead of summing the month's sessions.
 *
 * `agent_hours_totals` holds, for the UTC month of the organisation's latest session event: the
 * seconds inside that month of the sessions that ended, how many are open, and the sum of the
 * open sessions' start offsets into the month. Used seconds at a time `at` of that month are
 * `ended + open × (at − month start) − offsets`; in a later month nothing has started or ended
 * since, so only the open sessions count, from that month's first instant (`agent_seconds_used`).
 *
 * A trigger on `sessions` keeps the row, in the transaction that starts or ends the session:
 * it locks the organisation's row, rolls it over to the month of the event when that is later
 * (what ended belonged to the month before; open sessions carry over with no offset), removes
 * the session's old contribution and adds its new one. Every writer of `sessions` is covered,
 * instances of the previous version during an upgrade included. Sessions are never deleted on
 * their own (only with their organisation, whose row goes too), so DELETE is not tracked.
 */
export class AgentHoursTotals1795371981912 implements MigrationInterface {
  name = 'AgentHoursTotals1795371981912';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_hours_totals" ("organisation_id" uuid NOT NULL, "month_start" TIMESTAMP WITH TIME ZONE NOT NULL, "ended_seconds" double precision NOT NULL DEFAULT '0', "open_sessions" integer NOT NULL DEFAULT '0', "open_offset_seconds" double precision NOT NULL DEFAULT '0', CONSTRAINT "PK_b5eb50fd7393d15b8c91c01ccac" PRIMARY KEY ("organisation_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_hours_totals" ADD CONSTRAINT "FK_b5eb50fd7393d15b8c91c01ccac" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    // The first instant (UTC) of the month holding `at`, and of the month after one starting at `month_start`.
    await queryRunner.query(`CREATE FUNCTION "utc_month_start"("at" timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('month', "at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`);
    await queryRunner.query(`CREATE FUNCTION "utc_next_month_start"("month_start" timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT (("month_start" AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC' $$`);

    // Seconds of agent time used in the UTC month holding `at`, from an organisation's totals
    // (all NULL when it has none). Totals of an earlier month mean nothing started or ended
    // since: the sessions still open count from this month's first instant. Totals of a later
    // month (a transaction that began just before midnight reading totals already rolled over)
    // are read at that month's start.
    await queryRunner.query(`CREATE FUNCTION "agent_seconds_used"(
        "month_start" timestamptz, "ended_seconds" float8, "open_sessions" integer, "open_offset_seconds" float8, "at" timestamptz
      ) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN "month_start" IS NULL THEN 0::float8
        WHEN "month_start" < utc_month_start("at")
          THEN "open_sessions" * EXTRACT(EPOCH FROM "at" - utc_month_start("at"))::float8
        ELSE GREATEST(
          "ended_seconds" + "open_sessions" * GREATEST(EXTRACT(EPOCH FROM "at" - "month_start")::float8, 0) - "open_offset_seconds",
          0)
      END $$`);

    await queryRunner.query(`CREATE FUNCTION "agent_hours_totals_track"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        event_month timestamptz := utc_month_start(COALESCE(NEW.ended_at, NEW.started_at));
        t agent_hours_totals%ROWTYPE;
        month_end timestamptz;
      BEGIN
        INSERT INTO agent_hours_totals (organisation_id, month_start) VALUES (NEW.organisation_id, event_month)
          ON CONFLICT (organisation_id) DO NOTHING;
        -- One session event of an organisation at a time: each reads the totals the one before committed.
        SELECT * INTO STRICT t FROM agent_hours_totals WHERE organisation_id = NEW.organisation_id FOR UPDATE;
        IF t.month_start < event_month THEN
          -- A new month: time of ended sessions was the old month's; open ones count from its first instant.
          t.month_start := event_month;
          t.ended_seconds := 0;
          t.open_offset_seconds := 0;
        END IF;
        month_end := utc_next_month_start(t.month_start);
        IF TG_OP = 'UPDATE' THEN
          IF OLD.ended_at IS NULL THEN
            t.open_sessions := t.open_sessions - 1;
            t.open_offset_seconds := t.open_offset_seconds - GREATEST(EXTRACT(EPOCH FROM OLD.started_at - t.month_start)::float8, 0);
          ELSE
            t.ended_seconds := t.ended_seconds - GREATEST(EXTRACT(EPOCH FROM LEAST(OLD.ended_at, month_end) - GREATEST(OLD.started_at, t.month_start))::float8, 0);
          END IF;
        END IF;
        IF NEW.ended_at IS NULL THEN
          t.open_sessions := t.open_sessions + 1;
          t.open_offset_seconds := t.open_offset_seconds + GREATEST(EXTRACT(EPOCH FROM NEW.started_at - t.month_start)::float8, 0);
        ELSE
          t.ended_seconds := t.ended_seconds + GREATEST(EXTRACT(EPOCH FROM LEAST(NEW.ended_at, month_end) - GREATEST(NEW.started_at, t.month_start))::float8, 0);
        END IF;
        UPDATE agent_hours_totals
           SET month_start = t.month_start, ended_seconds = t.ended_seconds,
               open_sessions = t.open_sessions, open_offset_seconds = t.open_offset_seconds
         WHERE organisation_id = NEW.organisation_id;
        RETURN NULL;
      END $$`);

    // The trigger first: it locks out session writes until this migration commits, so the
    // backfill below misses none (an instance of the previous version waits, then is tracked).
    await queryRunner.query(`CREATE TRIGGER "sessions_track_agent_hours_insert" AFTER INSERT ON "sessions"
      FOR EACH ROW EXECUTE FUNCTION "agent_hours_totals_track"()`);
    await queryRunner.query(`CREATE TRIGGER "sessions_track_agent_hours_update" AFTER UPDATE OF "started_at", "ended_at" ON "sessions"
      FOR EACH ROW WHEN (OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.ended_at IS DISTINCT FROM NEW.ended_at)
      EXECUTE FUNCTION "agent_hours_totals_track"()`);

    // This month's totals of the sessions that exist: open, or ended since the month began.
    await queryRunner.query(`INSERT INTO agent_hours_totals (organisation_id, month_start, ended_seconds, open_sessions, open_offset_seconds)
      SELECT s.organisation_id, m.start,
             COALESCE(SUM(GREATEST(EXTRACT(EPOCH FROM LEAST(s.ended_at, utc_next_month_start(m.start)) - GREATEST(s.started_at, m.start))::float8, 0))
                        FILTER (WHERE s.ended_at IS NOT NULL), 0),
             count(*) FILTER (WHERE s.ended_at IS NULL),
             COALESCE(SUM(GREATEST(EXTRACT(EPOCH FROM s.started_at - m.start)::float8, 0)) FILTER (WHERE s.ended_at IS NULL), 0)
        FROM sessions s CROSS JOIN (SELECT utc_month_start(now()) AS start) m
       WHERE s.ended_at IS NULL OR s.ended_at > m.start
       GROUP BY s.organisation_id, m.start`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "sessions_track_agent_hours_update" ON "sessions"`);
    await queryRunner.query(`DROP TRIGGER "sessions_track_agent_hours_insert" ON "sessions"`);
    await queryRunner.query(`DROP FUNCTION "agent_hours_totals_track"()`);
    await queryRunner.query(
      `DROP FUNCTION "agent_seconds_used"(timestamptz, float8, integer, float8, timestamptz)`,
    );
    await queryRunner.query(`DROP FUNCTION "utc_next_month_start"(timestamptz)`);
    await queryRunner.query(`DROP FUNCTION "utc_month_start"(timestamptz)`);
    await queryRunner.query(
      `ALTER TABLE "agent_hours_totals" DROP CONSTRAINT "FK_b5eb50fd7393d15b8c91c01ccac"`,
    );
    await queryRunner.query(`DROP TABLE "agent_hours_totals"`);
  }
}
