import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email change (SPEC §8f, issue 33): `account_tokens` gains the link that confirms a new address
 * (`email_change`, kept with the new address) and the old address's undo link (`email_revert`,
 * kept with the old address).
 */
export class EmailChange1795779600000 implements MigrationInterface {
  name = 'EmailChange1795779600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_purpose_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_purpose_check" CHECK ("purpose" IN ('password_reset', 'email_verification', 'email_change', 'email_revert'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "account_tokens" WHERE "purpose" IN ('email_change', 'email_revert')`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_purpose_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_purpose_check" CHECK ("purpose" IN ('password_reset', 'email_verification'))`,
    );
  }
}
