import { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '../online-index.util';

/**
 * Argus's suggestions (SPEC §8d): `classification_suggestions` remembers what people said of a
 * suggestion (dismissed, or applied with its rule); and an index over people's approvals and
 * rejections by time, from which suggestions are read. The index is built CONCURRENTLY
 * (decisions keep being written), so the migration runs outside a transaction and each step can
 * run again after an interruption.
 */
export class ClassificationSuggestions1795772000001 implements MigrationInterface {
  name = 'ClassificationSuggestions1795772000001';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "classification_suggestions" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "key_id" uuid NOT NULL, "action_name" text NOT NULL, "shape" jsonb NOT NULL, "status" text NOT NULL, "rule_id" uuid, "decided_by_id" uuid NOT NULL, "decided_by_name" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "classification_suggestions_status_check" CHECK ("status" IN ('dismissed', 'applied')), CONSTRAINT "PK_classification_suggestions" PRIMARY KEY ("organisation_id", "id"), CONSTRAINT "FK_9cea9afcc81fd8e9d3a856bdbad" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_c0c7821152412090d17149aa9fc" FOREIGN KEY ("organisation_id", "rule_id") REFERENCES "classification_rules"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS "classification_suggestions_subject_key" ON "classification_suggestions" ("organisation_id", "key_id", "action_name", "shape")`,
    );
    await createIndexConcurrently(
      queryRunner,
      'interrupt_decisions_people_recent_idx',
      `ON "interrupt_decisions" ("organisation_id", "decided_at") WHERE "decided_by_type" = 'member' AND "decision" IN ('approve', 'reject')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropIndexConcurrently(queryRunner, 'interrupt_decisions_people_recent_idx');
    await queryRunner.query(`DROP TABLE IF EXISTS "classification_suggestions"`);
  }
}
