import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /api/interrupts?openedBy=me`: the interrupts the calling key opened (MCP's list_pending).
 * Led by organisation_id and ending in the listing's keyset order, like the inbox's indexes, so
 * a page — for one status, or the merge of one walk per status — is a short ordered index walk
 * however many interrupts the organisation's other keys opened.
 */
export class InterruptsOpenedBy1795372000000 implements MigrationInterface {
  name = 'InterruptsOpenedBy1795372000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_opened_by_idx" ON "interrupts" ("organisation_id", "opened_by_key_id", "status", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_opened_by_idx"`);
  }
}
