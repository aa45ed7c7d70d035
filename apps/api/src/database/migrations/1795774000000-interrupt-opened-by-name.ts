import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The record names the key that opened an interrupt (`openedBy`, issue 31 §1: agent context in
 * the inbox rows), as it was then: keys are renamed, and deleted when revoked, so the name is kept
 * with the interrupt, as the assignee's is. Existing interrupts take the name their
 * `interrupt.created` audit entry recorded (the key as it was), else the key's current name.
 */
export class InterruptOpenedByName1795774000000 implements MigrationInterface {
  name = 'InterruptOpenedByName1795774000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" ADD COLUMN "opened_by_key_name" text`);
    await queryRunner.query(
      `UPDATE "interrupts" i SET "opened_by_key_name" = a.actor_name
         FROM "audit_log_entries" a
        WHERE a.organisation_id = i.organisation_id AND a.target_type = 'interrupt'
          AND a.target_id = i.id::text AND a.action = 'interrupt.created'
          AND a.actor_type = 'api_key' AND a.actor_id = i.opened_by_key_id::text`,
    );
    await queryRunner.query(
      `UPDATE "interrupts" i SET "opened_by_key_name" = k.name
         FROM "api_keys" k
        WHERE i.opened_by_key_name IS NULL AND k.organisation_id = i.organisation_id
          AND k.id = i.opened_by_key_id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "opened_by_key_name"`);
  }
}
