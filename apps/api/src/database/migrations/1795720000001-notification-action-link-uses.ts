import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Emailed action links that were used (issue 30): each link decides once, so its nonce is kept,
 * written in the decision's transaction. The links themselves are never stored.
 */
export class NotificationActionLinkUses1795720000001 implements MigrationInterface {
  name = 'NotificationActionLinkUses1795720000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "notification_action_link_uses" ("organisation_id" uuid NOT NULL, "nonce" uuid NOT NULL, "interrupt_id" uuid NOT NULL, "user_id" uuid NOT NULL, "action_name" text NOT NULL, "decision" text NOT NULL, "used_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_885d42bebe7ea781898147cf31e" PRIMARY KEY ("organisation_id", "nonce"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_action_link_uses" ADD CONSTRAINT "FK_b493bc1ed40db10938356924818" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "notification_action_link_uses" DROP CONSTRAINT "FK_b493bc1ed40db10938356924818"`,
    );
    await queryRunner.query(`DROP TABLE "notification_action_link_uses"`);
  }
}
