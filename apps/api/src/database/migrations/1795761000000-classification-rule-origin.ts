import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a classification rule came from (SPEC §8d): written in the editor or the API (`member`),
 * made by "Always allow this" from an interrupt (`always_allow`, with that interrupt), or applied
 * from a suggestion (`suggestion`); and `paused`, set when a person's rejection of an action the
 * rule would approve switched it off.
 */
export class ClassificationRuleOrigin1795761000000 implements MigrationInterface {
  name = 'ClassificationRuleOrigin1795761000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "classification_rules" ADD "origin" text NOT NULL DEFAULT 'member'`,
    );
    await queryRunner.query(`ALTER TABLE "classification_rules" ADD "origin_interrupt_id" uuid`);
    await queryRunner.query(`ALTER TABLE "classification_rules" ADD "paused" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "classification_rules" ADD CONSTRAINT "classification_rules_origin_check" CHECK ("origin" IN ('member', 'always_allow', 'suggestion'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "classification_rules" DROP CONSTRAINT "classification_rules_origin_check"`,
    );
    await queryRunner.query(`ALTER TABLE "classification_rules" DROP COLUMN "paused"`);
    await queryRunner.query(`ALTER TABLE "classification_rules" DROP COLUMN "origin_interrupt_id"`);
    await queryRunner.query(`ALTER TABLE "classification_rules" DROP COLUMN "origin"`);
  }
}
