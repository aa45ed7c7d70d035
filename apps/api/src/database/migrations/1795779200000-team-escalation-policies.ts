import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Team escalation policies (SPEC §8e): a team's policy (its steps, as JSON; null: none), and on
 * each interrupt which policy its step count refers to (the team's id; null: the organisation's),
 * from when that policy's minutes count (null: since it opened), and when its assignee last
 * changed. Every column is added without a rewrite (no default, or a constant one).
 */
export class TeamEscalationPolicies1795779200000 implements MigrationInterface {
  name = 'TeamEscalationPolicies1795779200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "teams" ADD COLUMN "escalation_policy" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD COLUMN "escalation_policy_team_id" uuid, ADD COLUMN "escalation_clock_at" TIMESTAMP(3) WITH TIME ZONE, ADD COLUMN "assignee_changed_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "interrupts" DROP COLUMN "assignee_changed_at", DROP COLUMN "escalation_clock_at", DROP COLUMN "escalation_policy_team_id"`,
    );
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "escalation_policy"`);
  }
}
