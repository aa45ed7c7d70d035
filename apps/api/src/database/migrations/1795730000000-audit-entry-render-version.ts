import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit entry's stored rendering carries the version of the renderer that made it (issue 36
 * §2). `audit_log_entry_json(e)` is the one renderer of an entry's API JSON (SPEC §7): the
 * trigger stores its text as the entry is appended, and every read answers the stored text only
 * when it was made by the renderer of today (`audit_log_render_version()`), rendering the entry
 * again otherwise — so a change to the rendering (a new field) reaches every entry, old ones
 * included, without rewriting the append-only table. Changing the rendering is one migration that
 * replaces `audit_log_entry_json` and raises `audit_log_render_version` (and the service's
 * `AUDIT_RENDER_VERSION`, which a test holds equal to it).
 *
 * Entries stored before this migration were rendered by version 1 (migration 1795400000000):
 * the column is added with that constant default, which Postgres keeps without rewriting the
 * table, and the default is dropped so that only the trigger stamps new entries. Entries appended
 * before any text was stored keep a NULL text and are rendered on read.
 */
export class AuditEntryRenderVersion1795730000000 implements MigrationInterface {
  name = 'AuditEntryRenderVersion1795730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION "audit_log_render_version"() RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1::smallint $$`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_log_entries" ADD COLUMN "entry_render_version" smallint DEFAULT 1`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_log_entries" ALTER COLUMN "entry_render_version" DROP DEFAULT`,
    );
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "audit_log_entries_json"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.entry_json := "audit_log_entry_json"(NEW);
  NEW.entry_render_version := "audit_log_render_version"();
  RETURN NEW;
END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "audit_log_entries_json"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.entry_json := "audit_log_entry_json"(NEW);
  RETURN NEW;
END $$`);
    await queryRunner.query(`ALTER TABLE "audit_log_entries" DROP COLUMN "entry_render_version"`);
    await queryRunner.query(`DROP FUNCTION "audit_log_render_version"()`);
  }
}
