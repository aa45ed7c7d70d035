import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The running instances of the service, each renewing its row every second (its heartbeat). A
 * change that instances cache (a revoked key, a plan) answers only once every instance whose
 * heartbeat is current has acknowledged it (see PostgresNotificationBus). Infrastructure, not
 * an organisation's data: it carries no organisation_id.
 */
export class ServiceInstances1795360000000 implements MigrationInterface {
  name = 'ServiceInstances1795360000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "service_instances" (
      "id" uuid NOT NULL,
      "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "heartbeat_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "service_instances_pkey" PRIMARY KEY ("id")
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "service_instances"`);
  }
}
