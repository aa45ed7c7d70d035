import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Escalation chains (SPEC §8e): an organisation's policy (its steps, as JSON; null: none) and, on
 * each interrupt, how many of those steps it has passed. Both columns are added without a
 * rewrite (a constant default).
 */
export class EscalationPolicies1795764000000 implements MigrationInterface {
  name = 'EscalationPolicies1795764000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organisations" ADD COLUMN "interrupt_escalation_policy" jsonb`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD COLUMN "escalation_step" smallint NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "escalation_step"`);
    await queryRunner.query(
      `ALTER TABLE "organisations" DROP COLUMN "interrupt_escalation_policy"`,
    );
  }
}
