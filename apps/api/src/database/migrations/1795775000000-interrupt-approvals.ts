import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Several approvers (SPEC §8e, issue 37 §3): the members' approvals of actions that need more
 * than one, one row per member and action (the primary key refuses a second approval by the same
 * member). A new table: nothing existing is rewritten or locked for long.
 */
export class InterruptApprovals1795775000000 implements MigrationInterface {
  name = 'InterruptApprovals1795775000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "interrupt_approvals" ("organisation_id" uuid NOT NULL, "interrupt_id" uuid NOT NULL, "action_name" text NOT NULL, "member_id" uuid NOT NULL, "member_name" text NOT NULL, "approved_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3606cdf5a4f33d0e2a5c5163ae3" PRIMARY KEY ("organisation_id", "interrupt_id", "action_name", "member_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "interrupt_approvals" ADD CONSTRAINT "FK_3786588717d78eea045cc5b2ee9" FOREIGN KEY ("organisation_id", "interrupt_id") REFERENCES "interrupts"("organisation_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "interrupt_approvals" DROP CONSTRAINT "FK_3786588717d78eea045cc5b2ee9"`,
    );
    await queryRunner.query(`DROP TABLE "interrupt_approvals"`);
  }
}
