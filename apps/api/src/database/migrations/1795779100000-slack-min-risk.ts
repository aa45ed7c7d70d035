import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A Slack connection's risk rule (issue 30 §4, SPEC §8h): `min_risk` null posts every interrupt
 * the team rule admits; `high` (say) posts only those argus's classifier rated high or critical,
 * and those whose risk is unknown. A nullable column with a check: existing connections keep
 * posting as before.
 */
export class SlackMinRisk1795779100000 implements MigrationInterface {
  name = 'SlackMinRisk1795779100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "slack_connections" ADD "min_risk" text`);
    await queryRunner.query(
      `ALTER TABLE "slack_connections" ADD CONSTRAINT "slack_connections_min_risk_check" CHECK ("min_risk" IN ('low', 'medium', 'high', 'critical'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "slack_connections" DROP CONSTRAINT "slack_connections_min_risk_check"`,
    );
    await queryRunner.query(`ALTER TABLE "slack_connections" DROP COLUMN "min_risk"`);
  }
}
