import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password reset links (SPEC §8f, issue 33): `account_tokens` keeps each emailed token's SHA-256,
 * its address, its expiry and when it was used. A reference table, like the `users` it belongs
 * to (ARCHITECTURE.md).
 */
export class AccountTokens1795760000000 implements MigrationInterface {
  name = 'AccountTokens1795760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "account_tokens" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "purpose" text NOT NULL, "token_hash" text NOT NULL, "email" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "account_tokens_purpose_check" CHECK ("purpose" IN ('password_reset')), CONSTRAINT "PK_5e3640c493cc6206a44b885e6a9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "account_tokens_token_hash_key" ON "account_tokens" ("token_hash")`,
    );
    await queryRunner.query(
      `CREATE INDEX "account_tokens_user_idx" ON "account_tokens" ("user_id", "purpose")`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" ADD CONSTRAINT "FK_1b5fea09efc20c7f63c4a09b3d6" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "account_tokens"`);
  }
}
