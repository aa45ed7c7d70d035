import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The notification outbox and preferences (issue 30): `notifications` is written in the
 * transaction of the change it reports and claimed by the delivery workers through
 * `notifications_due_idx` with FOR UPDATE SKIP LOCKED (one recipient's digest as one batch);
 * `notification_settings` holds an organisation's defaults and action-link policy,
 * `notification_member_settings` a member's own choices and time zone. New tables only.
 */
export class Notifications1795699947074 implements MigrationInterface {
  name = 'Notifications1795699947074';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "notifications" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "recipient_user_id" uuid, "recipient_email" text NOT NULL, "recipient_key" text NOT NULL, "channel" text NOT NULL DEFAULT 'email', "kind" text NOT NULL, "mode" text NOT NULL, "subject_id" uuid, "data" jsonb NOT NULL, "batch_key" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "due_at" TIMESTAMP(3) WITH TIME ZONE, "scheduled_for" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "attempt_count" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL, "last_error" text, "message_id" text, "sent_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "notifications_status_check" CHECK ("status" IN ('pending', 'sending', 'sent', 'logged', 'failed')), CONSTRAINT "PK_01f32d2283b48af97825b51eaac" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "notifications_listing_idx" ON "notifications"  ("organisation_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "notifications_batch_idx" ON "notifications"  ("organisation_id", "recipient_key", "batch_key") `,
    );
    await queryRunner.query(
      `CREATE INDEX "notifications_due_idx" ON "notifications" ("due_at") WHERE "status" IN ('pending', 'sending')`,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_settings" ("organisation_id" uuid NOT NULL, "defaults" jsonb NOT NULL DEFAULT '{}', "token_actions" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3e47710d653ee08008e31633498" PRIMARY KEY ("organisation_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_member_settings" ("organisation_id" uuid NOT NULL, "user_id" uuid NOT NULL, "preferences" jsonb NOT NULL DEFAULT '{}', "time_zone" text NOT NULL DEFAULT 'UTC', "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0474dec10d8881ffdc49bb5fc0f" PRIMARY KEY ("organisation_id", "user_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" ADD CONSTRAINT "FK_c075d9ce655d67bbec46ff5631a" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_settings" ADD CONSTRAINT "FK_3e47710d653ee08008e31633498" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_member_settings" ADD CONSTRAINT "FK_0474dec10d8881ffdc49bb5fc0f" FOREIGN KEY ("organisation_id", "user_id") REFERENCES "memberships"("organisation_id","user_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "notification_member_settings" DROP CONSTRAINT "FK_0474dec10d8881ffdc49bb5fc0f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_settings" DROP CONSTRAINT "FK_3e47710d653ee08008e31633498"`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" DROP CONSTRAINT "FK_c075d9ce655d67bbec46ff5631a"`,
    );
    await queryRunner.query(`DROP TABLE "notification_member_settings"`);
    await queryRunner.query(`DROP TABLE "notification_settings"`);
    await queryRunner.query(`DROP INDEX "public"."notifications_due_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notifications_batch_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notifications_listing_idx"`);
    await queryRunner.query(`DROP TABLE "notifications"`);
  }
}
