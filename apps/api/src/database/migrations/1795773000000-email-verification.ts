import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified email addresses (SPEC §8f, issue 33): `users.email_verified_at` is when the person
 * proved the address by a link the service emailed to it (null: not proven), and
 * `account_tokens` gains the verification links. Accounts that exist before this migration are
 * taken as verified (their address is the one they have always used, and notifications and
 * invitations must not stop for them on an upgrade); every account made after it starts
 * unverified.
 */
export class EmailVerification1795773000000 implements MigrationInterface {
  name = 'EmailVerification1795773000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "email_verified_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "users" SET "email_verified_at" = "created_at"`);
    await queryRunner.query(
      `ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_purpose_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_purpose_check" CHECK ("purpose" IN ('password_reset', 'email_verification'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "account_tokens" WHERE "purpose" = 'email_verification'`);
    await queryRunner.query(
      `ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_purpose_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_purpose_check" CHECK ("purpose" IN ('password_reset'))`,
    );
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "email_verified_at"`);
  }
}
