import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on email domains proven by DNS (SPEC §8f, issue 33 §3).
 * - `sso_domains.verification_token`: what the organisation publishes in the TXT record
 *   `_interlock-challenge.<domain>` (`interlock-domain-verification=<token>`), one per
 *   organisation and domain; `verified_at`: when that record was found (null: not proven).
 * - Several organisations may name a domain while none has proven it (a first claim must not
 *   block the real owner); the partial unique index keeps a proven domain one organisation's.
 * - Every domain named before this migration is unverified: none routes sign-ins, links accounts
 *   or provisions members until its organisation publishes the record and verifies it.
 * - A link (`sso_identities`) signs in only an account at a domain its organisation holds proven:
 *   links made before (automatically, by any domain named) are forgotten, which at this upgrade
 *   is every link, since no domain is proven yet. A person links again at their next sign-in
 *   once the domain is proven (an existing account with its password session, SPEC §8f).
 *   Added to this migration before any release carried it.
 */
export class SsoDomainVerification1795780600000 implements MigrationInterface {
  name = 'SsoDomainVerification1795780600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sso_domains" ADD "verification_token" text, ADD "verified_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `UPDATE "sso_domains" SET "verification_token" = replace(gen_random_uuid()::text, '-', '')`,
    );
    await queryRunner.query(
      `ALTER TABLE "sso_domains" ALTER COLUMN "verification_token" SET NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "sso_domains" DROP CONSTRAINT "sso_domains_pkey"`);
    await queryRunner.query(
      `ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_pkey" PRIMARY KEY ("domain", "organisation_id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "sso_domains_verified_domain_key" ON "sso_domains" ("domain") WHERE verified_at IS NOT NULL`,
    );
    await queryRunner.query(
      `DELETE FROM "sso_identities" i USING "users" u
        WHERE u.id = i.user_id
          AND NOT EXISTS (SELECT 1 FROM "sso_domains" d
                           WHERE d.organisation_id = i.organisation_id AND d.verified_at IS NOT NULL
                             AND d.domain = lower(substring(u.email from '@([^@]*)$')))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Forgotten links are not restored: each is made again by its person's next sign-in.
    await queryRunner.query(`DROP INDEX "sso_domains_verified_domain_key"`);
    // One organisation per domain again: a proven claim wins, else the earliest named.
    await queryRunner.query(
      `DELETE FROM "sso_domains" d WHERE EXISTS (
         SELECT 1 FROM "sso_domains" o WHERE o.domain = d.domain AND o.ctid <> d.ctid
            AND (o.verified_at IS NOT NULL AND d.verified_at IS NULL
                 OR (o.verified_at IS NULL) = (d.verified_at IS NULL) AND o.ctid < d.ctid))`,
    );
    await queryRunner.query(`ALTER TABLE "sso_domains" DROP CONSTRAINT "sso_domains_pkey"`);
    await queryRunner.query(
      `ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_pkey" PRIMARY KEY ("domain")`,
    );
    await queryRunner.query(
      `ALTER TABLE "sso_domains" DROP COLUMN "verified_at", DROP COLUMN "verification_token"`,
    );
  }
}
