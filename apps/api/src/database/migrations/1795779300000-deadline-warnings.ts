import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The 'deadline coming' warning (issue 30 §1, SPEC §8h): `deadline_warned_at` is when the
 * warning job told the people an interrupt waits on that its deadline is near — null: not yet
 * for its current deadline (moving the deadline clears it). A nullable column: interrupts open
 * today are warned when their time comes.
 */
export class DeadlineWarnings1795779300000 implements MigrationInterface {
  name = 'DeadlineWarnings1795779300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD "deadline_warned_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "deadline_warned_at"`);
  }
}
