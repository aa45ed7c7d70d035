import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (issue 13, SPEC §8a) and the job runner's schedule.
 * - `webhooks`: the endpoints, their encrypted signing secrets and failure streak.
 * - `webhook_events`: the outbox, written in the transaction of the change an event reports.
 * - `webhook_deliveries`: one row per event and subscribed webhook — the delivery queue. Workers
 *   claim due rows through `webhook_deliveries_due_idx` with FOR UPDATE SKIP LOCKED; a row is held
 *   back while an earlier one of the same subject to the same webhook is unfinished
 *   (`webhook_deliveries_subject_idx`, in `seq` order). Both partial: finished rows leave them.
 * - `webhook_delivery_attempts`: every attempt, listed per delivery.
 * - `scheduled_jobs`: when each periodic job runs next, shared by every instance.
 */
export class Webhooks1795380000000 implements MigrationInterface {
  name = 'Webhooks1795380000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scheduled_jobs" ("name" text NOT NULL, "next_run_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_started_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_5c795bbd339d082a44c10f1bb4c" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_events" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "type" text NOT NULL, "subject_id" uuid NOT NULL, "body" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b4efc5728ee0d6d6f0ab192d28f" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_events_created_idx" ON "webhook_events"  ("created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "webhook_id" uuid NOT NULL, "event_id" uuid NOT NULL, "event_type" text NOT NULL, "subject_id" uuid NOT NULL, "seq" BIGSERIAL NOT NULL, "status" text NOT NULL DEFAULT 'pending', "due_at" TIMESTAMP(3) WITH TIME ZONE, "attempt_count" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL, "last_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_response_status" integer, "last_duration_ms" integer, "last_error" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivering', 'succeeded', 'failed')), CONSTRAINT "PK_31c790e9980feabd7412d1fa63b" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("due_at") WHERE "status" IN ('pending', 'delivering')`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_subject_idx" ON "webhook_deliveries" ("organisation_id", "webhook_id", "subject_id", "seq") WHERE "status" IN ('pending', 'delivering')`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries" ("finished_at") WHERE "finished_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries"  ("organisation_id", "event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_listing_idx" ON "webhook_deliveries"  ("organisation_id", "webhook_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery_attempts" ("organisation_id" uuid NOT NULL, "delivery_id" uuid NOT NULL, "number" integer NOT NULL, "started_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "response_status" integer, "duration_ms" integer NOT NULL, "error" text, CONSTRAINT "PK_36976fecadb38b9ca1e84a7eae5" PRIMARY KEY ("organisation_id", "delivery_id", "number"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhooks" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "url" text NOT NULL, "description" text NOT NULL DEFAULT '', "event_types" text array, "enabled" boolean NOT NULL DEFAULT true, "secret" bytea NOT NULL, "previous_secret" bytea, "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE, "failing_since" TIMESTAMP(3) WITH TIME ZONE, "created_by" uuid NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d10bc747c1fc2b5ff115e82daa8" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhooks_organisation_created_idx" ON "webhooks"  ("organisation_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_f1285c927f3dc3c6ccad6b9cf83" FOREIGN KEY ("organisation_id", "event_id") REFERENCES "webhook_events"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "FK_07438a262d81bdbd969f35bb94b" FOREIGN KEY ("organisation_id", "delivery_id") REFERENCES "webhook_deliveries"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhooks" ADD CONSTRAINT "FK_f17cbaff252a2efbca190dbd0ff" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhooks" DROP CONSTRAINT "FK_f17cbaff252a2efbca190dbd0ff"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "FK_07438a262d81bdbd969f35bb94b"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_f1285c927f3dc3c6ccad6b9cf83"`,
    );
    await queryRunner.query(`DROP INDEX "public"."webhooks_organisation_created_idx"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_listing_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_event_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_finished_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_subject_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_due_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_events_created_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_events"`);
    await queryRunner.query(`DROP TABLE "scheduled_jobs"`);
  }
}
