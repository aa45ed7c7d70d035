import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Argus's rules (SPEC §8d): `classification_rules`, one organisation's rules read whole into each
 * instance's rule cache. The permissions `classification.read` and `classification.manage` join
 * the built-in roles of existing organisations as new ones get them (Owner and Developer both,
 * Manager read).
 */
export class ClassificationRules1795710000000 implements MigrationInterface {
  name = 'ClassificationRules1795710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "classification_rules" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "mode" text NOT NULL, "priority" integer NOT NULL, "match" jsonb NOT NULL, "outcome" jsonb NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "classification_rules_mode_check" CHECK ("mode" IN ('off', 'shadow', 'enforce')), CONSTRAINT "PK_classification_rules" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "classification_rules" ADD CONSTRAINT "FK_a94a5aaeccf309fc752f373cd23" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `UPDATE roles SET permissions = permissions || ARRAY['classification.read', 'classification.manage']::text[]
        WHERE built_in IN ('owner', 'developer') AND NOT permissions @> ARRAY['classification.read']::text[]`,
    );
    await queryRunner.query(
      `UPDATE roles SET permissions = permissions || ARRAY['classification.read']::text[]
        WHERE built_in = 'manager' AND NOT permissions @> ARRAY['classification.read']::text[]`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE roles SET permissions = array_remove(array_remove(permissions, 'classification.read'), 'classification.manage')`,
    );
    await queryRunner.query(`DROP TABLE "classification_rules"`);
  }
}
