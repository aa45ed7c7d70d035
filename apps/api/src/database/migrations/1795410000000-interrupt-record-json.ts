import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each interrupt keeps its record as the API renders it (`record_json`), written by the service
 * last in every transaction that changes the interrupt: the read agents poll while they wait for
 * a decision (`GET /api/interrupts/{id}`) selects that one text column and answers it as it is,
 * instead of seventeen columns and an aggregate of the decisions for the service to decode and
 * write out again on every poll (issue 14). The service renders it, from the row the change
 * returned, with the same code as every other answer, so the bytes are the same by construction.
 *
 * It never goes stale: an update of the row that does not set `record_json` clears it (BEFORE
 * UPDATE, so also the updates a foreign key's action makes), and any change to the interrupt's
 * decisions clears its parent's. A NULL — interrupts opened before this migration, or a change
 * made outside the service — is read from the columns as before. The upgrade rewrites nothing.
 * Adding the column takes a brief ACCESS EXCLUSIVE lock on the table (README, Upgrades).
 */
export class InterruptRecordJson1795410000000 implements MigrationInterface {
  name = 'InterruptRecordJson1795410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" ADD COLUMN "record_json" text`);
    await queryRunner.query(`CREATE FUNCTION "interrupts_record_json_stale"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.record_json IS NOT DISTINCT FROM OLD.record_json THEN
    NEW.record_json := NULL;
  END IF;
  RETURN NEW;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "interrupts_record_json_stale" BEFORE UPDATE ON "interrupts" FOR EACH ROW EXECUTE FUNCTION "interrupts_record_json_stale"()`,
    );
    await queryRunner.query(`CREATE FUNCTION "interrupt_decisions_record_json_stale"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE interrupts SET record_json = NULL
     WHERE organisation_id = OLD.organisation_id AND id = OLD.interrupt_id AND record_json IS NOT NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE interrupts SET record_json = NULL
     WHERE organisation_id = NEW.organisation_id AND id = NEW.interrupt_id AND record_json IS NOT NULL;
  END IF;
  RETURN NULL;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "interrupt_decisions_record_json_stale" AFTER INSERT OR UPDATE OR DELETE ON "interrupt_decisions"
         FOR EACH ROW EXECUTE FUNCTION "interrupt_decisions_record_json_stale"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TRIGGER "interrupt_decisions_record_json_stale" ON "interrupt_decisions"`,
    );
    await queryRunner.query(`DROP FUNCTION "interrupt_decisions_record_json_stale"()`);
    await queryRunner.query(`DROP TRIGGER "interrupts_record_json_stale" ON "interrupts"`);
    await queryRunner.query(`DROP FUNCTION "interrupts_record_json_stale"()`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "record_json"`);
  }
}
