import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One person, several organisations (issue 18). A member row held a person (email, name,
 * password hash) and their one organisation and role; it splits into:
 * - `users`: the person, one per email across the service (a reference table: no
 *   organisation_id, looked up by email before any organisation is known);
 * - `memberships`: user × organisation × role, with when it began and ended;
 * - `sign_in_sessions`: the cookie's session, now the user's (it was a member's).
 *
 * Existing data moves in place: each member becomes a user with the member's id — so every
 * audit entry's `actorId`, every decision's `decided_by_id`, assignee, team membership, key
 * creator and inviter still names the same person — and a current membership of their
 * organisation with their role, joined when the member was created. Sessions keep their token
 * hashes, so everyone stays signed in.
 */
export class UsersAndMemberships1795390000000 implements MigrationInterface {
  name = 'UsersAndMemberships1795390000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL, "email" text NOT NULL, "name" text NOT NULL, "password_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "users"  ("email") `);
    await queryRunner.query(
      `INSERT INTO "users" ("id", "email", "name", "password_hash", "created_at")
       SELECT "id", "email", "name", "password_hash", "created_at" FROM "members"`,
    );

    await queryRunner.query(
      `CREATE TABLE "memberships" ("organisation_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role_id" uuid, "joined_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "left_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "memberships_role_while_current" CHECK (("left_at" IS NULL) = ("role_id" IS NOT NULL)), CONSTRAINT "PK_4aa9948db96ef67c47d2968a121" PRIMARY KEY ("organisation_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "memberships_organisation_role_idx" ON "memberships"  ("organisation_id", "role_id") `,
    );
    await queryRunner.query(`CREATE INDEX "memberships_user_idx" ON "memberships"  ("user_id") `);
    await queryRunner.query(
      `INSERT INTO "memberships" ("organisation_id", "user_id", "role_id", "joined_at")
       SELECT "organisation_id", "id", "role_id", "created_at" FROM "members"`,
    );

    await queryRunner.query(
      `CREATE TABLE "sign_in_sessions" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8bd3b623fbd2bd1b7677abae97c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "sign_in_sessions_user_idx" ON "sign_in_sessions"  ("user_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "sign_in_sessions_token_hash_key" ON "sign_in_sessions"  ("token_hash") `,
    );
    await queryRunner.query(
      `INSERT INTO "sign_in_sessions" ("id", "user_id", "token_hash", "created_at", "expires_at")
       SELECT "id", "member_id", "token_hash", "created_at", "expires_at" FROM "member_sessions" WHERE "expires_at" > now()`,
    );

    await queryRunner.query(
      `ALTER TABLE "sign_in_sessions" ADD CONSTRAINT "FK_6db384256878b91bc69fb2162ef" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_55c59139e9136eb9a76ed30c6dc" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_7c1e2fdfed4f6838e0c05ae5051" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_f1ec993aa77ab487f1b9a0a6de3" FOREIGN KEY ("organisation_id", "role_id") REFERENCES "roles"("organisation_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    // Team memberships now hang off the membership (organisation, user id = the old member id).
    await queryRunner.query(
      `ALTER TABLE "team_members" DROP CONSTRAINT "FK_ba685dabf039d948827e388036d"`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_ba685dabf039d948827e388036d" FOREIGN KEY ("organisation_id", "member_id") REFERENCES "memberships"("organisation_id","user_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    await queryRunner.query(`DROP TABLE "member_sessions"`);
    await queryRunner.query(`DROP TABLE "members"`);
  }

  /**
   * Back to one organisation per person: possible only while every user holds at most one
   * current membership (ended memberships and the sessions of users without a current one are
   * dropped; their audit entries stay).
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ count }]: { count: number }[] = await queryRunner.query(
      `SELECT count(*)::int AS count FROM (
         SELECT "user_id" FROM "memberships" WHERE "left_at" IS NULL GROUP BY "user_id" HAVING count(*) > 1
       ) several`,
    );
    if (count > 0) {
      throw new Error(
        `Cannot revert UsersAndMemberships: ${count} users are members of several organisations, which the previous schema cannot hold.`,
      );
    }
    await queryRunner.query(
      `CREATE TABLE "members" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "email" text NOT NULL, "name" text NOT NULL, "password_hash" text NOT NULL, "role_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_84f36424375bfd49a93dd664d43" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "members_organisation_role_idx" ON "members"  ("organisation_id", "role_id") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "members_email_key" ON "members"  ("email") `);
    await queryRunner.query(
      `INSERT INTO "members" ("organisation_id", "id", "email", "name", "password_hash", "role_id", "created_at")
       SELECT m."organisation_id", u."id", u."email", u."name", u."password_hash", m."role_id", m."joined_at"
         FROM "memberships" m JOIN "users" u ON u."id" = m."user_id"
        WHERE m."left_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "member_sessions" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "member_id" uuid NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_a2614da4f91e9505202e41c4c94" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "member_sessions_member_idx" ON "member_sessions"  ("organisation_id", "member_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "member_sessions_token_hash_key" ON "member_sessions"  ("token_hash") `,
    );
    await queryRunner.query(
      `INSERT INTO "member_sessions" ("organisation_id", "id", "member_id", "token_hash", "created_at", "expires_at")
       SELECT m."organisation_id", s."id", s."user_id", s."token_hash", s."created_at", s."expires_at"
         FROM "sign_in_sessions" s JOIN "members" m ON m."id" = s."user_id"`,
    );
    await queryRunner.query(
      `ALTER TABLE "members" ADD CONSTRAINT "FK_ea8e953157d3927bf956cf40a60" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "members" ADD CONSTRAINT "FK_741992f4524f8f96d9f27011767" FOREIGN KEY ("organisation_id", "role_id") REFERENCES "roles"("organisation_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "member_sessions" ADD CONSTRAINT "FK_a0575d8202fdc66df5d7e2cb33a" FOREIGN KEY ("organisation_id", "member_id") REFERENCES "members"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" DROP CONSTRAINT "FK_ba685dabf039d948827e388036d"`,
    );
    await queryRunner.query(
      `DELETE FROM "team_members" tm WHERE NOT EXISTS (
         SELECT 1 FROM "members" m WHERE m."organisation_id" = tm."organisation_id" AND m."id" = tm."member_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_ba685dabf039d948827e388036d" FOREIGN KEY ("organisation_id", "member_id") REFERENCES "members"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`DROP TABLE "sign_in_sessions"`);
    await queryRunner.query(`DROP TABLE "memberships"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
