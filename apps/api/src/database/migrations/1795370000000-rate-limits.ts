import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §8b, rate limits shared by every instance:
 * - `rate_limits`: sign-in and sign-up attempts per account and per client address, in the
 *   layout of rate-limiter-flexible's Postgres store (the service creates no tables at run
 *   time). Keys are SHA-256 digests, never an email or address in clear; `key` is text, not the
 *   store's varchar(255).
 * - `api_key_request_windows`: requests per organisation per fixed window, added to in batches
 *   by each instance (see ApiKeyBudget).
 */
export class RateLimits1795370000000 implements MigrationInterface {
  name = 'RateLimits1795370000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "rate_limits" (
      "key" text NOT NULL,
      "points" integer NOT NULL DEFAULT 0,
      "expire" bigint,
      CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
    )`);
    await queryRunner.query(`CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" ("expire")`);
    await queryRunner.query(`CREATE TABLE "api_key_request_windows" (
      "organisation_id" uuid NOT NULL REFERENCES "organisations"("id") ON DELETE CASCADE,
      "window_start" TIMESTAMP WITH TIME ZONE NOT NULL,
      "requests" bigint NOT NULL,
      CONSTRAINT "api_key_request_windows_pkey" PRIMARY KEY ("organisation_id", "window_start")
    )`);
    await queryRunner.query(
      `CREATE INDEX "api_key_request_windows_start_idx" ON "api_key_request_windows" ("window_start")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_key_request_windows"`);
    await queryRunner.query(`DROP TABLE "rate_limits"`);
  }
}
