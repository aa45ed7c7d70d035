import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Routing at creation (issue 37 §1, SPEC §8e): an interrupt's `priority` (`low` | `normal` |
 * `high` | `urgent`; every interrupt open today is `normal`, the default) and the labels its agent
 * gave it (`agent_labels`, null for none — the classifier's stay in `risk_labels`).
 */
export class InterruptRouting1795779400000 implements MigrationInterface {
  name = 'InterruptRouting1795779400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD "priority" text NOT NULL DEFAULT 'normal'`,
    );
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "agent_labels" text array`);
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD CONSTRAINT "interrupts_priority_check" CHECK ("priority" IN ('low', 'normal', 'high', 'urgent'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" DROP CONSTRAINT "interrupts_priority_check"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "agent_labels"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "priority"`);
  }
}
