import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Typed human input (issue 32 §2): a `respond` on an action request with a `responseSchema`
 * carries the member's typed answer (`response`), validated against that schema. The schema
 * itself lives in the interrupt's `action_requests` (jsonb), like the rest of the action.
 */
export class DecisionResponse1795769000000 implements MigrationInterface {
  name = 'DecisionResponse1795769000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" ADD "response" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" DROP COLUMN "response"`);
  }
}
