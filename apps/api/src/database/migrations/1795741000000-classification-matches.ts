import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Argus's statistics (SPEC §8d): `classification_matches`, one row per rule matching an action
 * request, completed for shadow rules when a person decides the action (would argus have agreed).
 * Rows go with their rule (cascade) and with their interrupt.
 */
export class ClassificationMatches1795741000000 implements MigrationInterface {
  name = 'ClassificationMatches1795741000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "classification_matches" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "rule_id" uuid NOT NULL, "interrupt_id" uuid NOT NULL, "action_name" text NOT NULL, "mode" text NOT NULL, "outcome" text NOT NULL, "decides" boolean NOT NULL, "person_decision" text, "person_name" text, "agreed" boolean, "decided_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "classification_matches_mode_check" CHECK ("mode" IN ('shadow', 'enforce')), CONSTRAINT "PK_cd26a7111754130f7a59b202b1c" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "classification_matches_action_idx" ON "classification_matches"  ("organisation_id", "interrupt_id", "action_name") `,
    );
    await queryRunner.query(
      `CREATE INDEX "classification_matches_rule_idx" ON "classification_matches"  ("organisation_id", "rule_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "classification_matches" ADD CONSTRAINT "FK_810fc3848d64d1c2f0fad9eb8b3" FOREIGN KEY ("organisation_id", "rule_id") REFERENCES "classification_rules"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "classification_matches" ADD CONSTRAINT "FK_34c02e635aae453810e81a66ce2" FOREIGN KEY ("organisation_id", "interrupt_id") REFERENCES "interrupts"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "classification_matches" DROP CONSTRAINT "FK_34c02e635aae453810e81a66ce2"`,
    );
    await queryRunner.query(
      `ALTER TABLE "classification_matches" DROP CONSTRAINT "FK_810fc3848d64d1c2f0fad9eb8b3"`,
    );
    await queryRunner.query(`DROP INDEX "public"."classification_matches_rule_idx"`);
    await queryRunner.query(`DROP INDEX "public"."classification_matches_action_idx"`);
    await queryRunner.query(`DROP TABLE "classification_matches"`);
  }
}
