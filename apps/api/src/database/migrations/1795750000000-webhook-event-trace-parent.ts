import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace an event was written in (SPEC §8g): the W3C `traceparent` of the request or job that
 * wrote it, when traces are on, so its webhook deliveries continue that trace (and send it on).
 * Nullable, no default: nothing is rewritten.
 */
export class WebhookEventTraceParent1795750000000 implements MigrationInterface {
  name = 'WebhookEventTraceParent1795750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_events" ADD "trace_parent" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_events" DROP COLUMN "trace_parent"`);
  }
}
