import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rule cache's version per organisation (SPEC §8d "The rule cache", issue 29): a counter every
 * write of its classification rules or classifier raises in its transaction, replacing the count
 * and latest `updated_at` of its rules — a transaction's `now()` is its start, so a change that
 * commits later could carry an older time and leave a cache that read before it looking current.
 * No row yet reads as version 0, so nothing is backfilled.
 */
export class ClassificationVersions1795780000000 implements MigrationInterface {
  name = 'ClassificationVersions1795780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "classification_versions" ("organisation_id" uuid NOT NULL, "version" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_b63bd2a1053fc3ef4a9b8de4ae0" PRIMARY KEY ("organisation_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "classification_versions" ADD CONSTRAINT "FK_b63bd2a1053fc3ef4a9b8de4ae0" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "classification_versions" DROP CONSTRAINT "FK_b63bd2a1053fc3ef4a9b8de4ae0"`,
    );
    await queryRunner.query(`DROP TABLE "classification_versions"`);
  }
}
