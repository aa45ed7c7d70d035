import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slack (issue 30 §4): `slack_connections` holds an organisation's Slack app (sealed bot token
 * and signing secret, channel, which interrupts are posted); `slack_messages` the message of each
 * posted interrupt, written in the interrupt's transactions and claimed by the Slack delivery
 * workers through `slack_messages_due_idx` with FOR UPDATE SKIP LOCKED. New tables only.
 */
export class Slack1795762000000 implements MigrationInterface {
  name = 'Slack1795762000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "slack_connections" ("organisation_id" uuid NOT NULL, "slack_team_id" text NOT NULL, "slack_team_name" text NOT NULL, "bot_user_id" text NOT NULL, "bot_token" bytea NOT NULL, "signing_secret" bytea NOT NULL, "channel_id" text NOT NULL, "team_id" uuid, "credentials_set_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "slack_connections_pkey" PRIMARY KEY ("organisation_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "slack_messages" ("organisation_id" uuid NOT NULL, "interrupt_id" uuid NOT NULL, "channel_id" text NOT NULL, "ts" text, "data" jsonb NOT NULL, "version" integer NOT NULL DEFAULT '1', "posted_version" integer NOT NULL DEFAULT '0', "status" text NOT NULL DEFAULT 'pending', "due_at" TIMESTAMP(3) WITH TIME ZONE, "attempt_count" integer NOT NULL DEFAULT '0', "last_error" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "slack_messages_status_check" CHECK ("status" IN ('pending', 'sending', 'sent', 'failed')), CONSTRAINT "slack_messages_pkey" PRIMARY KEY ("organisation_id", "interrupt_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "slack_messages_listing_idx" ON "slack_messages" ("organisation_id", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "slack_messages_due_idx" ON "slack_messages" ("due_at") WHERE "status" IN ('pending', 'sending')`,
    );
    await queryRunner.query(
      `ALTER TABLE "slack_connections" ADD CONSTRAINT "slack_connections_organisation_fk" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "slack_messages" ADD CONSTRAINT "slack_messages_organisation_fk" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "slack_messages"`);
    await queryRunner.query(`DROP TABLE "slack_connections"`);
  }
}
