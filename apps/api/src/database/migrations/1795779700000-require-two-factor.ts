import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Require two-factor sign-in for members (SPEC §8f, issue 33 §2):
 * `organisations.require_two_factor`. While it is on, a password sign-in session of a person
 * without two-factor sign-in does not act for the organisation until they turn it on.
 */
export class RequireTwoFactor1795779700000 implements MigrationInterface {
  name = 'RequireTwoFactor1795779700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organisations" ADD "require_two_factor" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "organisations" DROP COLUMN "require_two_factor"`);
  }
}
