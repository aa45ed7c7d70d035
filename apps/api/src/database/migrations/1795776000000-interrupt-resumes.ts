import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * resumeUrl (SPEC §8e, issue 37 §5): one row per interrupt opened with one — the URL and its
 * signing secret sealed, `waiting` until the event that ends the interrupt makes it due — and the
 * POST's queue state. A new table: nothing existing is rewritten or locked for long. The worker's
 * claim walks the partial index of due rows, as the webhook deliveries' does.
 */
export class InterruptResumes1795776000000 implements MigrationInterface {
  name = 'InterruptResumes1795776000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "interrupt_resumes" ("organisation_id" uuid NOT NULL, "interrupt_id" uuid NOT NULL, "sealed" bytea NOT NULL, "status" text NOT NULL DEFAULT 'waiting', "event_id" uuid, "event_type" text, "body" text, "attempt_count" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL, "due_at" TIMESTAMP(3) WITH TIME ZONE, "last_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_response_status" integer, "last_error" text, "finished_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "interrupt_resumes_status_check" CHECK ("status" IN ('waiting', 'pending', 'delivering', 'succeeded', 'failed')), CONSTRAINT "PK_dea4107da2d9c65328c48e70671" PRIMARY KEY ("organisation_id", "interrupt_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_resumes" ADD CONSTRAINT "FK_dea4107da2d9c65328c48e70671" FOREIGN KEY ("organisation_id", "interrupt_id") REFERENCES "interrupts"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "interrupt_resumes_due_idx" ON "interrupt_resumes" ("due_at") WHERE "status" IN ('pending', 'delivering')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."interrupt_resumes_due_idx"`);
    await queryRunner.query(
      `ALTER TABLE "interrupt_resumes" DROP CONSTRAINT "FK_dea4107da2d9c65328c48e70671"`,
    );
    await queryRunner.query(`DROP TABLE "interrupt_resumes"`);
  }
}
