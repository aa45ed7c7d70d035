import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deadlines and withdrawal (SPEC §8e). An interrupt may carry a deadline (`expires_at`) and what
 * happens then (`on_timeout`: reject, approve, escalate — `timeout_escalated` once an escalation
 * at the deadline extended it); at the deadline it becomes `expired`, and an agent may withdraw it
 * (`withdrawn`, with `withdrawn_reason`); `closed_at` is when it stopped being open that way.
 * The expiry job finds what is due through a small partial index of the open interrupts that have
 * a deadline (maintenance across organisations, like the idempotency sweep; not unique, so it
 * needs no organisation_id under Citus). The organisation holds the bounds (`interrupt_timeout_*`).
 * Every column is nullable or has a constant default: nothing is rewritten.
 */
export class InterruptDeadlines1795720000000 implements MigrationInterface {
  name = 'InterruptDeadlines1795720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD "expires_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "on_timeout" text`);
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD "timeout_escalated" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "closed_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "withdrawn_reason" text`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP CONSTRAINT "interrupts_status_check"`);
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD CONSTRAINT "interrupts_status_check" CHECK ("status" IN ('open', 'answered', 'expired', 'withdrawn')) NOT VALID`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupts" VALIDATE CONSTRAINT "interrupts_status_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD CONSTRAINT "interrupts_on_timeout_check" CHECK ("on_timeout" IN ('reject', 'approve', 'escalate'))`,
    );
    await queryRunner.query(
      `CREATE INDEX "interrupts_due_idx" ON "interrupts" ("expires_at") WHERE "status" = 'open' AND "expires_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "organisations" ADD "interrupt_timeout_default_seconds" integer`,
    );
    await queryRunner.query(
      `ALTER TABLE "organisations" ADD "interrupt_timeout_max_seconds" integer`,
    );
    await queryRunner.query(
      `ALTER TABLE "organisations" ADD "interrupt_timeout_approve_allowed" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organisations" DROP COLUMN "interrupt_timeout_approve_allowed"`,
    );
    await queryRunner.query(
      `ALTER TABLE "organisations" DROP COLUMN "interrupt_timeout_max_seconds"`,
    );
    await queryRunner.query(
      `ALTER TABLE "organisations" DROP COLUMN "interrupt_timeout_default_seconds"`,
    );
    await queryRunner.query(`DROP INDEX "public"."interrupts_due_idx"`);
    await queryRunner.query(
      `ALTER TABLE "interrupts" DROP CONSTRAINT "interrupts_on_timeout_check"`,
    );
    await queryRunner.query(`DELETE FROM "interrupts" WHERE "status" IN ('expired', 'withdrawn')`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP CONSTRAINT "interrupts_status_check"`);
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD CONSTRAINT "interrupts_status_check" CHECK ("status" IN ('open', 'answered'))`,
    );
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "withdrawn_reason"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "closed_at"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "timeout_escalated"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "on_timeout"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "expires_at"`);
  }
}
