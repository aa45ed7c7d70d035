import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Require single sign-on (SPEC §8f, issue 33 §3).
 * - `sso_connections.require_sso`: password sign-in no longer acts for the organisation (its
 *   Owners keep a password as the break-glass path, audited).
 * - `sso_connections.verified_at`: when the provider first signed someone in with the current
 *   issuer and client id; requiring single sign-on needs it (a provider that never worked would
 *   lock the members out).
 */
export class RequireSingleSignOn1795779500000 implements MigrationInterface {
  name = 'RequireSingleSignOn1795779500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sso_connections" ADD "require_sso" boolean NOT NULL DEFAULT false, ADD "verified_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sso_connections" DROP COLUMN "verified_at", DROP COLUMN "require_sso"`,
    );
  }
}
