import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each audit entry keeps its API rendering (SPEC §7), written once as it is appended: the page
 * reads return it as it is, instead of fourteen columns for the service to decode and write out
 * again on every read of a log that agents poll (issue 14). Entries are never edited, so the
 * text never goes stale; it is outside the hash chain, and the chain verifier checks each stored
 * text against the entry's content.
 *
 * `audit_log_entry_json(e)` is the rendering: the bytes the service's `auditEntryJson` writes
 * of the entry — `JSON.stringify` of it as `toAuditEntry` makes it: the same key order, absent
 * fields left out, strings escaped as JSON.stringify escapes them (Postgres' JSON escaping is the
 * same) — with the metadata written compactly in jsonb's own order (`audit_json_compact`). As for
 * `compactJson`, two things no JSON reader tells apart may differ from JSON.stringify of the
 * parsed metadata: a key that looks like an array index keeps jsonb's place, and numbers keep
 * jsonb's digits. The audit-log e2e suite holds the renderings together.
 *
 * A BEFORE INSERT trigger fills `entry_json`; it is named to fire after
 * `audit_log_entries_append` (Postgres fires a table's triggers of one kind in name order), which
 * sets the entry's instant. Entries appended before this migration keep a NULL, and the service
 * renders them from their columns as it did before (`AuditLogService`): the upgrade rewrites
 * nothing. Adding the column takes a brief ACCESS EXCLUSIVE lock on the table (README, Upgrades).
 */
export class AuditLogEntryJson1795400000000 implements MigrationInterface {
  name = 'AuditLogEntryJson1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // jsonb's text without the space it writes after every ':' and ',', walked in the order that
    // text lists the value's members. PL/pgSQL, not SQL: a recursive SQL function is planned
    // again at every level of every call (~250 µs a value, against ~12).
    await queryRunner.query(`CREATE FUNCTION "audit_json_compact"(j jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  parts text[] := '{}';
  k text;
  v jsonb;
BEGIN
  CASE jsonb_typeof(j)
  WHEN 'object' THEN
    FOR k, v IN SELECT m.k, m.v FROM jsonb_each(j) WITH ORDINALITY AS m(k, v, n) ORDER BY m.n LOOP
      parts := parts || (to_json(k)::text || ':' || "audit_json_compact"(v));
    END LOOP;
    RETURN '{' || array_to_string(parts, ',') || '}';
  WHEN 'array' THEN
    FOR v IN SELECT a.v FROM jsonb_array_elements(j) WITH ORDINALITY AS a(v, n) ORDER BY a.n LOOP
      parts := parts || "audit_json_compact"(v);
    END LOOP;
    RETURN '[' || array_to_string(parts, ',') || ']';
  ELSE
    RETURN j::text;
  END CASE;
END $$`);
    await queryRunner.query(`ALTER TABLE "audit_log_entries" ADD COLUMN "entry_json" text`);
    await queryRunner.query(`CREATE FUNCTION "audit_log_entry_json"(e "audit_log_entries") RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN '{"id":"' || e.id || '","createdAt":"' || to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        || '","action":' || to_json(e.action) || ',"category":' || to_json(e.category)
        || ',"actorType":' || to_json(e.actor_type) || ',"actorName":' || to_json(e.actor_name)
        || ',"summary":' || to_json(e.summary) || ',"metadata":' || coalesce("audit_json_compact"(e.metadata), 'null')
        || CASE WHEN e.actor_id IS NULL THEN '' ELSE ',"actorId":' || to_json(e.actor_id) END
        || CASE WHEN e.target_type IS NULL OR e.target_id IS NULL THEN ''
                ELSE ',"targetType":' || to_json(e.target_type) || ',"targetId":' || to_json(e.target_id)
                  || ',"targetName":' || to_json(coalesce(e.target_name, '')) END
        || CASE WHEN e.ip_address IS NULL THEN '' ELSE ',"ipAddress":' || to_json(e.ip_address) END
        || '}';
END $$`);
    await queryRunner.query(`CREATE FUNCTION "audit_log_entries_json"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.entry_json := "audit_log_entry_json"(NEW);
  RETURN NEW;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_log_entries_json" BEFORE INSERT ON "audit_log_entries" FOR EACH ROW EXECUTE FUNCTION "audit_log_entries_json"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "audit_log_entries_json" ON "audit_log_entries"`);
    await queryRunner.query(`DROP FUNCTION "audit_log_entries_json"()`);
    await queryRunner.query(`DROP FUNCTION "audit_log_entry_json"("audit_log_entries")`);
    await queryRunner.query(`ALTER TABLE "audit_log_entries" DROP COLUMN "entry_json"`);
    await queryRunner.query(`DROP FUNCTION "audit_json_compact"(jsonb)`);
  }
}
