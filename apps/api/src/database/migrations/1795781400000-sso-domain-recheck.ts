import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proven single sign-on domains are looked up again periodically (SPEC §8f, issue 33 §3):
 * `sso_domains.last_checked_at` (the latest look-up since the proof; null: none yet, so the next
 * is due `SSO_DOMAIN_RECHECK_INTERVAL` after `verified_at`) and `failed_checks` (look-ups in a
 * row that did not find the record; `SSO_DOMAIN_RECHECK_FAILURES` of them withdraw the proof).
 * Adding nullable and defaulted columns rewrites nothing: existing proofs are next looked up one
 * interval after they were made, or at once when that is past.
 */
export class SsoDomainRecheck1795781400000 implements MigrationInterface {
  name = 'SsoDomainRecheck1795781400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sso_domains" ADD "last_checked_at" TIMESTAMP WITH TIME ZONE, ADD "failed_checks" integer NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sso_domains" DROP COLUMN "failed_checks", DROP COLUMN "last_checked_at"`,
    );
  }
}
