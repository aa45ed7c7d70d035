import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Argus's external classifier (SPEC §8d, issue 29 §1.3): one endpoint per organisation, its
 * signing secret sealed (and the previous one for 24 hours after a rotation); and what it said of
 * an interrupt kept with the interrupt — the highest risk and the labels (the record's `risk`,
 * `labels`). Both columns are null for interrupts opened without a classifier, so nothing is
 * backfilled.
 */
export class ClassificationClassifier1795777000000 implements MigrationInterface {
  name = 'ClassificationClassifier1795777000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "classification_classifiers" ("organisation_id" uuid NOT NULL, "url" text NOT NULL, "timeout_ms" integer NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "secret" bytea NOT NULL, "previous_secret" bytea, "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "classification_classifiers_timeout_check" CHECK ("timeout_ms" BETWEEN 100 AND 10000), CONSTRAINT "PK_a82700dfe2ed9d5485ae57a8c07" PRIMARY KEY ("organisation_id"), CONSTRAINT "FK_a82700dfe2ed9d5485ae57a8c07" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "risk" text`);
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "risk_labels" text array`);
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD CONSTRAINT "interrupts_risk_check" CHECK ("risk" IN ('low', 'medium', 'high', 'critical'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" DROP CONSTRAINT "interrupts_risk_check"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "risk_labels"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "risk"`);
    await queryRunner.query(`DROP TABLE "classification_classifiers"`);
  }
}
