import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on with OpenID Connect (SPEC §8f, issue 33 §3).
 * - `sso_connections`: an organisation's OpenID provider (issuer, client id, the client secret
 *   sealed under a key derived from the server secret and bound to the organisation), the role a
 *   person provisioned at their first sign-in gets, and the email domains it signs in.
 * - `sso_domains`: which organisation's provider signs in an email domain — read before any
 *   organisation is known (the sign-in page has only an address), so a reference table like
 *   `users`; one organisation per domain.
 * - `sso_identities`: the provider's subject (`iss`, `sub`) linked to a user, per organisation.
 * - `sign_in_sessions.sso_organisation_id`: a sign-in session made by an organisation's provider
 *   acts for that organisation only (its provider vouched for nothing else).
 */
export class SingleSignOn1795779000000 implements MigrationInterface {
  name = 'SingleSignOn1795779000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sso_connections" ("organisation_id" uuid NOT NULL, "issuer" text NOT NULL, "client_id" text NOT NULL, "client_secret_sealed" bytea NOT NULL, "default_role_id" uuid NOT NULL, "allowed_domains" text[] NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "sso_connections_pkey" PRIMARY KEY ("organisation_id"), CONSTRAINT "sso_connections_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE TABLE "sso_domains" ("domain" text NOT NULL, "organisation_id" uuid NOT NULL, CONSTRAINT "sso_domains_pkey" PRIMARY KEY ("domain"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "sso_domains_organisation_id_idx" ON "sso_domains" ("organisation_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "sso_identities" ("organisation_id" uuid NOT NULL, "issuer" text NOT NULL, "subject" text NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "sso_identities_pkey" PRIMARY KEY ("organisation_id", "issuer", "subject"), CONSTRAINT "sso_identities_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "sso_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(`ALTER TABLE "sign_in_sessions" ADD "sso_organisation_id" uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sign_in_sessions" DROP COLUMN "sso_organisation_id"`);
    await queryRunner.query(`DROP TABLE "sso_identities"`);
    await queryRunner.query(`DROP TABLE "sso_domains"`);
    await queryRunner.query(`DROP TABLE "sso_connections"`);
  }
}
