import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member's `edit` decision may rename the action (`editedName`): LangGraph's human-in-the-loop
 * edits carry a tool name beside the args, so a reviewer can redirect a call to another tool.
 */
export class DecisionEditedName1795356000000 implements MigrationInterface {
  name = 'DecisionEditedName1795356000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" ADD "edited_name" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupt_decisions" DROP COLUMN "edited_name"`);
  }
}
