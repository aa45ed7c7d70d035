import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log's read side (SPEC §7):
 * - Order. A BEFORE INSERT trigger takes the organisation's head row (a row lock held until
 *   commit), so one organisation's audit-writing transactions append one after another: each
 *   entry gets the next `seq` and a `created_at` no older than its predecessor's, and entries
 *   become visible in that order. A mirror polling with `from` = newest createdAt seen can
 *   therefore never miss an entry that commits later with an older timestamp.
 * - Tamper evidence. Each entry stores `hash` = SHA-256(predecessor's hash || canonical
 *   content); `audit_log_entry_digest` is the one definition, used by the trigger and by the
 *   chain verifier.
 * - Search. `search` holds the entry's words (summary, actor, target, action), folded to lower
 *   case without accents by the writer; a GIN index led by organisation_id serves rare
 *   prefixes, the ordered indexes serve broad ones.
 * - An index for every filter, each led by organisation_id, ending in the walk order.
 * Entries written before this migration are chained here, oldest first (a maintenance step
 * that briefly disables the immutability trigger inside this transaction).
 */
/**
 * The append trigger's first form (the head row updated per entry): made here, and put back by
 * `AuditLogLinearAppends1795350000000`'s down, so both emit this one text.
 */
export const PER_ENTRY_APPEND = `"audit_log_entries_append"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head "audit_log_heads"%ROWTYPE;
  now_ms timestamptz := date_trunc('milliseconds', clock_timestamp());
BEGIN
  INSERT INTO "audit_log_heads" (organisation_id, last_seq, last_hash, last_created_at)
    VALUES (NEW.organisation_id, 0, '', '-infinity')
    ON CONFLICT (organisation_id) DO NOTHING;
  SELECT * INTO head FROM "audit_log_heads" WHERE organisation_id = NEW.organisation_id FOR UPDATE;
  NEW.seq := head.last_seq + 1;
  NEW.created_at := greatest(now_ms, head.last_created_at);
  NEW.hash := "audit_log_entry_digest"(head.last_hash, NEW);
  UPDATE "audit_log_heads"
     SET last_seq = NEW.seq, last_hash = NEW.hash, last_created_at = NEW.created_at
   WHERE organisation_id = NEW.organisation_id;
  RETURN NEW;
END $$`;

export class AuditLogChainAndSearch1795300000000 implements MigrationInterface {
  name = 'AuditLogChainAndSearch1795300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(`CREATE TABLE "audit_log_heads" (
      "organisation_id" uuid NOT NULL REFERENCES "organisations"("id"),
      "last_seq" bigint NOT NULL,
      "last_hash" text NOT NULL,
      "last_created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL,
      CONSTRAINT "audit_log_heads_pkey" PRIMARY KEY ("organisation_id")
    )`);
    await queryRunner.query(`ALTER TABLE "audit_log_entries"
      ADD COLUMN "seq" bigint,
      ADD COLUMN "hash" text,
      ADD COLUMN "search" tsvector NOT NULL DEFAULT ''::tsvector`);

    await queryRunner.query(`CREATE FUNCTION "audit_log_entry_digest"(prev text, e "audit_log_entries") RETURNS text
      LANGUAGE sql IMMUTABLE AS $$
        SELECT encode(sha256(convert_to(prev || jsonb_build_array(
          e.organisation_id, e.id, e.seq,
          to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          e.action, e.category, e.actor_type, e.actor_id, e.actor_name,
          e.target_type, e.target_id, e.target_name, e.summary, e.metadata, e.ip_address
        )::text, 'UTF8')), 'hex')
      $$`);
    await queryRunner.query(`CREATE FUNCTION ${PER_ENTRY_APPEND}`);

    // Chain what is already there, oldest first, then append through the trigger from now on.
    await queryRunner.query(
      `ALTER TABLE "audit_log_entries" DISABLE TRIGGER "audit_log_entries_no_update_delete"`,
    );
    await queryRunner.query(`DO $$
DECLARE
  e "audit_log_entries"%ROWTYPE;
  prev_org uuid := NULL;
  n bigint := 0;
  h text := '';
BEGIN
  FOR e IN SELECT * FROM "audit_log_entries" ORDER BY organisation_id, created_at, id LOOP
    IF prev_org IS DISTINCT FROM e.organisation_id THEN
      prev_org := e.organisation_id; n := 0; h := '';
    END IF;
    n := n + 1;
    e.created_at := date_trunc('milliseconds', e.created_at);
    e.seq := n;
    h := "audit_log_entry_digest"(h, e);
    UPDATE "audit_log_entries" SET seq = n, hash = h, created_at = e.created_at
     WHERE organisation_id = e.organisation_id AND id = e.id;
    INSERT INTO "audit_log_heads" VALUES (e.organisation_id, n, h, e.created_at)
      ON CONFLICT (organisation_id) DO UPDATE SET last_seq = n, last_hash = h, last_created_at = e.created_at;
  END LOOP;
END $$`);
    await queryRunner.query(
      `ALTER TABLE "audit_log_entries" ENABLE TRIGGER "audit_log_entries_no_update_delete"`,
    );
    await queryRunner.query(`ALTER TABLE "audit_log_entries" ALTER COLUMN "seq" SET NOT NULL, ALTER COLUMN "hash" SET NOT NULL,
      ALTER COLUMN "created_at" DROP DEFAULT`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_log_entries_append" BEFORE INSERT ON "audit_log_entries" FOR EACH ROW EXECUTE FUNCTION "audit_log_entries_append"()`,
    );

    await queryRunner.query(`DROP INDEX "audit_log_entries_organisation_created_idx"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "audit_log_entries_org_seq_key" ON "audit_log_entries" ("organisation_id", "seq")`,
    );
    await queryRunner.query(
      `CREATE INDEX "audit_log_entries_org_created_idx" ON "audit_log_entries" ("organisation_id", "created_at" DESC, "seq" DESC)`,
    );
    for (const column of [
      'category',
      'action',
      'actor_type',
      'actor_id',
      'target_type',
      'target_id',
    ]) {
      await queryRunner.query(
        `CREATE INDEX "audit_log_entries_org_${column}_idx" ON "audit_log_entries" ("organisation_id", "${column}", "created_at" DESC, "seq" DESC)`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX "audit_log_entries_org_search_idx" ON "audit_log_entries" USING gin ("organisation_id", "search")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of [
      'category',
      'action',
      'actor_type',
      'actor_id',
      'target_type',
      'target_id',
      'search',
    ]) {
      await queryRunner.query(`DROP INDEX "audit_log_entries_org_${column}_idx"`);
    }
    await queryRunner.query(`DROP INDEX "audit_log_entries_org_created_idx"`);
    await queryRunner.query(`DROP INDEX "audit_log_entries_org_seq_key"`);
    await queryRunner.query(
      `CREATE INDEX "audit_log_entries_organisation_created_idx" ON "audit_log_entries" ("organisation_id", "created_at" DESC, "id" DESC)`,
    );
    await queryRunner.query(`DROP TRIGGER "audit_log_entries_append" ON "audit_log_entries"`);
    await queryRunner.query(`DROP FUNCTION "audit_log_entries_append"()`);
    await queryRunner.query(`DROP FUNCTION "audit_log_entry_digest"(text, "audit_log_entries")`);
    await queryRunner.query(
      `ALTER TABLE "audit_log_entries" ALTER COLUMN "created_at" SET DEFAULT date_trunc('milliseconds', clock_timestamp())`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_log_entries" DROP COLUMN "search", DROP COLUMN "hash", DROP COLUMN "seq"`,
    );
    await queryRunner.query(`DROP TABLE "audit_log_heads"`);
  }
}
