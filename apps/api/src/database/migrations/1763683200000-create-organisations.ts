import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOrganisations1763683200000 implements MigrationInterface {
  name = 'CreateOrganisations1763683200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "organisations" ("id" uuid NOT NULL, "name" text NOT NULL, "plan" text NOT NULL DEFAULT 'free', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_organisations" PRIMARY KEY ("id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "organisations"`);
  }
}
