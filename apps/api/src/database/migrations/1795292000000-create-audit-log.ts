import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The append-only audit log (SPEC §7). Written through libs/audit in the transaction of each
 * change. UPDATE, DELETE and TRUNCATE raise for every role, the owner included: only a
 * deliberate maintenance step that disables the triggers (ALTER TABLE … DISABLE TRIGGER, which
 * needs the table owner) can remove data. A deployment can go further and run the service
 * under a role that holds only SELECT and INSERT on this table:
 *   REVOKE UPDATE, DELETE, TRUNCATE ON audit_log_entries FROM interlock_app;
 */
export class CreateAuditLog1795292000000 implements MigrationInterface {
  name = 'CreateAuditLog1795292000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_log_entries" (
      "organisation_id" uuid NOT NULL REFERENCES "organisations"("id"),
      "id" uuid NOT NULL,
      "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
      "action" text NOT NULL,
      "category" text NOT NULL,
      "actor_type" text NOT NULL,
      "actor_id" text,
      "actor_name" text NOT NULL,
      "target_type" text,
      "target_id" text,
      "target_name" text,
      "summary" text NOT NULL,
      "metadata" jsonb,
      "ip_address" text,
      CONSTRAINT "audit_log_entries_pkey" PRIMARY KEY ("organisation_id", "id"),
      CONSTRAINT "audit_log_entries_action_check" CHECK ("action" LIKE "category" || '.%')
    )`);
    await queryRunner.query(
      `CREATE INDEX "audit_log_entries_organisation_created_idx" ON "audit_log_entries" ("organisation_id", "created_at" DESC, "id" DESC)`,
    );
    await queryRunner.query(`CREATE FUNCTION "audit_log_entries_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit log entries are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_log_entries_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log_entries" FOR EACH ROW EXECUTE FUNCTION "audit_log_entries_refuse_change"()`,
    );
    // Row triggers do not fire on TRUNCATE: a statement trigger does.
    await queryRunner.query(
      `CREATE TRIGGER "audit_log_entries_no_truncate" BEFORE TRUNCATE ON "audit_log_entries" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_entries_refuse_change"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_log_entries"`);
    await queryRunner.query(`DROP FUNCTION "audit_log_entries_refuse_change"()`);
  }
}
