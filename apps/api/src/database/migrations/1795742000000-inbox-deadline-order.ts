import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox sorted by deadline (`order=deadline`, SPEC §8e): the soonest deadline first, interrupts
 * without one last (as if due at 9999-12-31, the listing's `NO_DEADLINE`), ties by id. The keyset
 * walks (organisation_id, status, that expression, id), as the other listings walk created_at.
 */
export class InboxDeadlineOrder1795742000000 implements MigrationInterface {
  name = 'InboxDeadlineOrder1795742000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_status_deadline_idx" ON "interrupts"
         ("organisation_id", "status", (COALESCE("expires_at", '9999-12-31 00:00:00+00'::timestamptz)), "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_status_deadline_idx"`);
  }
}
