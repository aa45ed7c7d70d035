import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The periodic re-check of proven single sign-on domains (SPEC §8f) stamps each attempt:
 * `sso_domains.last_attempted_at`, set when a run claims the domain, whether or not the name
 * server answers. Runs take the longest-unattempted due domains first, so domains whose name
 * servers stay silent (a look-up that records nothing) no longer come first at every run and hold
 * the others back; and a run records its look-up only while its claim is the latest, so two runs
 * at once never count one domain's miss twice. Adding a nullable column rewrites nothing.
 */
export class SsoDomainAttempts1795781700000 implements MigrationInterface {
  name = 'SsoDomainAttempts1795781700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sso_domains" ADD "last_attempted_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_domains" DROP COLUMN "last_attempted_at"`);
  }
}
