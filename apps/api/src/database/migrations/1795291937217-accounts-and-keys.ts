import { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsAndKeys1795291937217 implements MigrationInterface {
  name = 'AccountsAndKeys1795291937217';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "start" text NOT NULL, "key_hash" text NOT NULL, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_fa885c09000eef43f9497ae35ac" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "api_keys_organisation_created_idx" ON "api_keys"  ("organisation_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"  ("key_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "roles" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "permissions" text array NOT NULL, "built_in" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ddb5bbe9408ed43e9713c036c44" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "roles_organisation_name_key" ON "roles"  ("organisation_id", "name") `,
    );
    await queryRunner.query(
      `CREATE TABLE "members" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "email" text NOT NULL, "name" text NOT NULL, "password_hash" text NOT NULL, "role_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_84f36424375bfd49a93dd664d43" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "members_organisation_role_idx" ON "members"  ("organisation_id", "role_id") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "members_email_key" ON "members"  ("email") `);
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
      `CREATE TABLE "invitations" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "email" text NOT NULL, "role_id" uuid NOT NULL, "token_hash" text NOT NULL, "invited_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_773cef4a450338ef04280220444" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "invitations_organisation_created_idx" ON "invitations"  ("organisation_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "teams" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2f421c6c77689e5adcafaf51d51" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "teams_organisation_name_key" ON "teams"  ("organisation_id", "name") `,
    );
    await queryRunner.query(
      `CREATE TABLE "team_members" ("organisation_id" uuid NOT NULL, "team_id" uuid NOT NULL, "member_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_79d16e1c4739209900062fec912" PRIMARY KEY ("organisation_id", "team_id", "member_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "team_members_member_idx" ON "team_members"  ("organisation_id", "member_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "organisations" ADD CONSTRAINT "organisations_plan_check" CHECK ("plan" IN ('free', 'pro'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_f68f7c5caa6f5f87a855b8cf3c8" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "roles" ADD CONSTRAINT "FK_19e50e41b606102c093a5667c5b" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
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
      `ALTER TABLE "invitations" ADD CONSTRAINT "FK_a27b7daed0d4b21f3dabce53f9c" FOREIGN KEY ("organisation_id", "role_id") REFERENCES "roles"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "teams" ADD CONSTRAINT "FK_45cb34254b2fd4d4767707a522e" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_80253cd2dda19c76097e2b1b67a" FOREIGN KEY ("organisation_id", "team_id") REFERENCES "teams"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_ba685dabf039d948827e388036d" FOREIGN KEY ("organisation_id", "member_id") REFERENCES "members"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    // Every change to a key or to an organisation's plan is announced to every instance, so
    // their in-process key caches drop the entry at once (SPEC §2: revocation is immediate).
    await queryRunner.query(`CREATE FUNCTION "interlock_notify_auth_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'api_keys' THEN
    PERFORM pg_notify('interlock_auth', 'key:' || OLD.id::text);
  ELSE
    PERFORM pg_notify('interlock_auth', 'org:' || OLD.id::text);
  END IF;
  RETURN NULL;
END $$`);
    // lastUsedAt writes are not changes anyone caches: they do not notify.
    await queryRunner.query(
      `CREATE TRIGGER "api_keys_notify_change" AFTER UPDATE ON "api_keys" FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.key_hash IS DISTINCT FROM NEW.key_hash OR OLD.organisation_id IS DISTINCT FROM NEW.organisation_id) EXECUTE FUNCTION "interlock_notify_auth_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "api_keys_notify_delete" AFTER DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION "interlock_notify_auth_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "organisations_notify_change" AFTER UPDATE OR DELETE ON "organisations" FOR EACH ROW EXECUTE FUNCTION "interlock_notify_auth_change"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "organisations_notify_change" ON "organisations"`);
    await queryRunner.query(`DROP TRIGGER "api_keys_notify_delete" ON "api_keys"`);
    await queryRunner.query(`DROP TRIGGER "api_keys_notify_change" ON "api_keys"`);
    await queryRunner.query(`DROP FUNCTION "interlock_notify_auth_change"()`);
    await queryRunner.query(
      `ALTER TABLE "team_members" DROP CONSTRAINT "FK_ba685dabf039d948827e388036d"`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" DROP CONSTRAINT "FK_80253cd2dda19c76097e2b1b67a"`,
    );
    await queryRunner.query(`ALTER TABLE "teams" DROP CONSTRAINT "FK_45cb34254b2fd4d4767707a522e"`);
    await queryRunner.query(
      `ALTER TABLE "invitations" DROP CONSTRAINT "FK_a27b7daed0d4b21f3dabce53f9c"`,
    );
    await queryRunner.query(
      `ALTER TABLE "member_sessions" DROP CONSTRAINT "FK_a0575d8202fdc66df5d7e2cb33a"`,
    );
    await queryRunner.query(
      `ALTER TABLE "members" DROP CONSTRAINT "FK_741992f4524f8f96d9f27011767"`,
    );
    await queryRunner.query(
      `ALTER TABLE "members" DROP CONSTRAINT "FK_ea8e953157d3927bf956cf40a60"`,
    );
    await queryRunner.query(`ALTER TABLE "roles" DROP CONSTRAINT "FK_19e50e41b606102c093a5667c5b"`);
    await queryRunner.query(
      `ALTER TABLE "api_keys" DROP CONSTRAINT "FK_f68f7c5caa6f5f87a855b8cf3c8"`,
    );
    await queryRunner.query(
      `ALTER TABLE "organisations" DROP CONSTRAINT "organisations_plan_check"`,
    );
    await queryRunner.query(`DROP INDEX "public"."team_members_member_idx"`);
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP INDEX "public"."teams_organisation_name_key"`);
    await queryRunner.query(`DROP TABLE "teams"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_token_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_organisation_created_idx"`);
    await queryRunner.query(`DROP TABLE "invitations"`);
    await queryRunner.query(`DROP INDEX "public"."member_sessions_token_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."member_sessions_member_idx"`);
    await queryRunner.query(`DROP TABLE "member_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."members_email_key"`);
    await queryRunner.query(`DROP INDEX "public"."members_organisation_role_idx"`);
    await queryRunner.query(`DROP TABLE "members"`);
    await queryRunner.query(`DROP INDEX "public"."roles_organisation_name_key"`);
    await queryRunner.query(`DROP TABLE "roles"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_key_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_organisation_created_idx"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}
