import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in sessions a person can see and end (Settings → Security, issue 33): when each was last
 * used, from which address and browser — and the idle timeout reads `last_used_at`.
 */
export class SignInSessionActivity1795770000000 implements MigrationInterface {
  name = 'SignInSessionActivity1795770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sign_in_sessions" ADD "last_used_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`,
    );
    await queryRunner.query(`ALTER TABLE "sign_in_sessions" ADD "ip_address" text`);
    await queryRunner.query(`ALTER TABLE "sign_in_sessions" ADD "user_agent" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sign_in_sessions" DROP COLUMN "user_agent"`);
    await queryRunner.query(`ALTER TABLE "sign_in_sessions" DROP COLUMN "ip_address"`);
    await queryRunner.query(`ALTER TABLE "sign_in_sessions" DROP COLUMN "last_used_at"`);
  }
}
