import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A decision is made by a member, by argus (the automatic classifier, by a rule) or by the service
 * itself (`system`, e.g. at a deadline): `decided_by_type`, with the rule or the reason beside it,
 * and `decided_by_id` only for a member. Existing decisions are members' (the column's default,
 * which Postgres applies without rewriting the table). The check is added NOT VALID and validated
 * afterwards, which scans the table without blocking writes.
 *
 * The kept rendering of an interrupt (`record_json`) names its renderer's version
 * (`record_version`): records kept before `decidedBy` gained its `type` have none, and are rendered
 * again on read instead of being answered in the old shape.
 */
export class DecidedBy1795700000000 implements MigrationInterface {
  name = 'DecidedBy1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" ADD "decided_by_type" text NOT NULL DEFAULT 'member'`,
    );
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" ADD "decided_by_rule_id" uuid`);
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" ADD "decided_by_reason" text`);
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" ALTER COLUMN "decided_by_id" DROP NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" ADD CONSTRAINT "interrupt_decisions_decided_by_check" CHECK (("decided_by_type" = 'member' AND "decided_by_id" IS NOT NULL) OR ("decided_by_type" = 'argus' AND "decided_by_rule_id" IS NOT NULL) OR ("decided_by_type" = 'system' AND "decided_by_reason" IS NOT NULL)) NOT VALID`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" VALIDATE CONSTRAINT "interrupt_decisions_decided_by_check"`,
    );
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "record_version" smallint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "record_version"`);
    await queryRunner.query(
      `DELETE FROM "interrupt_decisions" WHERE "decided_by_type" <> 'member'`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" DROP CONSTRAINT "interrupt_decisions_decided_by_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" ALTER COLUMN "decided_by_id" SET NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" DROP COLUMN "decided_by_reason"`);
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" DROP COLUMN "decided_by_rule_id"`);
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" DROP COLUMN "decided_by_type"`);
  }
}
