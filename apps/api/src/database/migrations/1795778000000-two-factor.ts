import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in (SPEC §8f, issue 33 §2). `user_two_factor`: a person's TOTP secret, sealed
 * (AES-256-GCM under a key derived from the server secret, bound to the user), from set-up on;
 * `enabled_at` is set once a code from the app confirms it (until then sign-in does not ask for
 * one), and `last_step` is the time step of the latest code taken, so a code is taken once.
 * `user_recovery_codes`: the SHA-256 of each single-use recovery code, `used_at` once used. Both
 * are reference tables like `users`: about a person, not one organisation.
 */
export class TwoFactor1795778000000 implements MigrationInterface {
  name = 'TwoFactor1795778000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_two_factor" ("user_id" uuid NOT NULL, "secret_sealed" bytea NOT NULL, "enabled_at" TIMESTAMP WITH TIME ZONE, "last_step" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "user_two_factor_pkey" PRIMARY KEY ("user_id"), CONSTRAINT "user_two_factor_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE TABLE "user_recovery_codes" ("user_id" uuid NOT NULL, "code_hash" text NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "user_recovery_codes_pkey" PRIMARY KEY ("user_id", "code_hash"), CONSTRAINT "user_recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "user_recovery_codes"`);
    await queryRunner.query(`DROP TABLE "user_two_factor"`);
  }
}
