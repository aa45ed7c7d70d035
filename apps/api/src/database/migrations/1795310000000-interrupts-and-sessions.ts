import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Interrupts and their decisions, Live View sessions and their messages, the monthly usage
 * counter and idempotency keys (issue 5). Generated from the entities, plus the partial index
 * TypeORM cannot compare (declared on InterruptEntity with synchronize: false).
 */
export class InterruptsAndSessions1795310000000 implements MigrationInterface {
  name = 'InterruptsAndSessions1795310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "usage_months" ("organisation_id" uuid NOT NULL, "month" date NOT NULL, "messages" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_a4f4affe1957c0d339843882ade" PRIMARY KEY ("organisation_id", "month"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("organisation_id" uuid NOT NULL, "key" text NOT NULL, "fingerprint" text NOT NULL, "response_status" integer, "response_body" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_94ad185cd620ee841022da26a8b" PRIMARY KEY ("organisation_id", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idempotency_keys_organisation_created_idx" ON "idempotency_keys"  ("organisation_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sessions" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "external_id" text, "metadata" jsonb, "status" text NOT NULL DEFAULT 'active', "message_count" integer NOT NULL DEFAULT '0', "started_by_key_id" uuid, "started_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "ended_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "sessions_status_check" CHECK ("status" IN ('active', 'ended', 'disconnected')), CONSTRAINT "PK_d0dae3b12948de7918db1de79c3" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "sessions_organisation_ended_idx" ON "sessions"  ("organisation_id", "ended_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "interrupts" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "title" text NOT NULL, "description" text, "external_id" text, "session_id" uuid, "status" text NOT NULL DEFAULT 'open', "action_requests" jsonb NOT NULL, "metadata" jsonb, "opened_by_key_id" uuid, "assignee_type" text, "assignee_id" uuid, "assignee_name" text, "escalation_level" integer NOT NULL DEFAULT '0', "escalation_reason" text, "escalated_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "answered_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "interrupts_assignee_type_check" CHECK ("assignee_type" IN ('member', 'team')), CONSTRAINT "interrupts_status_check" CHECK ("status" IN ('open', 'answered')), CONSTRAINT "PK_88cd6150d379d8dba9a197c63d2" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_status_created_idx" ON "interrupts"  ("organisation_id", "status", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_created_idx" ON "interrupts"  ("organisation_id", "created_at", "id") `,
    );
    // Listing by externalId: only interrupts that carry one are indexed.
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_external_idx" ON "interrupts" ("organisation_id", "external_id", "created_at", "id") WHERE "external_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "interrupt_decisions" ("organisation_id" uuid NOT NULL, "id" uuid NOT NULL, "interrupt_id" uuid NOT NULL, "action_name" text NOT NULL, "decision" text NOT NULL, "edited_args" jsonb, "message" text, "decided_by_id" uuid NOT NULL, "decided_by_name" text NOT NULL, "decided_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "interrupt_decisions_decision_check" CHECK ("decision" IN ('approve', 'edit', 'reject', 'respond')), CONSTRAINT "PK_7a690d9cfa2c3fb68a904254bd0" PRIMARY KEY ("organisation_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "interrupt_decisions_action_key" ON "interrupt_decisions"  ("organisation_id", "interrupt_id", "action_name") `,
    );
    await queryRunner.query(
      `CREATE TABLE "session_messages" ("organisation_id" uuid NOT NULL, "session_id" uuid NOT NULL, "seq" integer NOT NULL, "role" text NOT NULL, "content" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "session_messages_role_check" CHECK ("role" IN ('agent', 'user', 'tool', 'system')), CONSTRAINT "PK_3364ad70c3e475092b9b6fe57d4" PRIMARY KEY ("organisation_id", "session_id", "seq"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "usage_months" ADD CONSTRAINT "FK_118dea5677ae5ab35674e804c7f" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ADD CONSTRAINT "FK_0c1b16382b3788114e210f877b5" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD CONSTRAINT "FK_3cd6ded154fa511ecd6651ccc40" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD CONSTRAINT "FK_c71ca58565cf48e05df5c6d51cc" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD CONSTRAINT "FK_764797b20a1c2bee3a1ccdd19fe" FOREIGN KEY ("organisation_id", "session_id") REFERENCES "sessions"("organisation_id","id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" ADD CONSTRAINT "FK_cc19f2f615bba5743cd510d8ad1" FOREIGN KEY ("organisation_id", "interrupt_id") REFERENCES "interrupts"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "session_messages" ADD CONSTRAINT "FK_a62f13614833a24132960c15b23" FOREIGN KEY ("organisation_id", "session_id") REFERENCES "sessions"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "session_messages" DROP CONSTRAINT "FK_a62f13614833a24132960c15b23"`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_decisions" DROP CONSTRAINT "FK_cc19f2f615bba5743cd510d8ad1"`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupts" DROP CONSTRAINT "FK_764797b20a1c2bee3a1ccdd19fe"`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupts" DROP CONSTRAINT "FK_c71ca58565cf48e05df5c6d51cc"`,
    );
    await queryRunner.query(
      `ALTER TABLE "sessions" DROP CONSTRAINT "FK_3cd6ded154fa511ecd6651ccc40"`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" DROP CONSTRAINT "FK_0c1b16382b3788114e210f877b5"`,
    );
    await queryRunner.query(
      `ALTER TABLE "usage_months" DROP CONSTRAINT "FK_118dea5677ae5ab35674e804c7f"`,
    );
    await queryRunner.query(`DROP TABLE "session_messages"`);
    await queryRunner.query(`DROP INDEX "public"."interrupt_decisions_action_key"`);
    await queryRunner.query(`DROP TABLE "interrupt_decisions"`);
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_external_idx"`);
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_status_created_idx"`);
    await queryRunner.query(`DROP TABLE "interrupts"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_organisation_ended_idx"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_keys_organisation_created_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
    await queryRunner.query(`DROP TABLE "usage_months"`);
  }
}
