import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bytes of session messages an organisation stores, for the plans' storage quota (SPEC §8,
 * issue 34 item 3): `session_storage_totals.message_bytes`, the sum of `octet_length(content)` of
 * the organisation's `session_messages`.
 *
 * Appends add to it with a conditional upsert that refuses past the quota (the row lock makes the
 * check exact under concurrent appends). Deletions are subtracted by a statement trigger on
 * `session_messages` with the deleted rows as a transition table, one UPDATE per statement
 * (the retention job deletes thousands of rows at once): every deleter is covered, the retention
 * job and an organisation's deletion alike.
 *
 * The backfill runs in this migration's transaction, after the trigger exists. An instance of the
 * previous version appending during a rolling upgrade does not add to the total: those few
 * messages are not counted (and are subtracted when deleted, so the total errs on the low side).
 */
export class SessionStorage1795763000001 implements MigrationInterface {
  name = 'SessionStorage1795763000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "session_storage_totals" ("organisation_id" uuid NOT NULL, "message_bytes" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_e973f18c827bf79d51a9b0e96f5" PRIMARY KEY ("organisation_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "session_storage_totals" ADD CONSTRAINT "FK_e973f18c827bf79d51a9b0e96f5" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE FUNCTION "session_storage_release"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE session_storage_totals t SET message_bytes = t.message_bytes - g.bytes
          FROM (SELECT organisation_id, sum(octet_length(content))::bigint AS bytes FROM gone GROUP BY organisation_id) g
         WHERE t.organisation_id = g.organisation_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "session_messages_release_storage" AFTER DELETE ON "session_messages"
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "session_storage_release"()`);
    await queryRunner.query(`INSERT INTO session_storage_totals (organisation_id, message_bytes)
      SELECT organisation_id, sum(octet_length(content))::bigint FROM session_messages GROUP BY organisation_id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TRIGGER "session_messages_release_storage" ON "session_messages"`,
    );
    await queryRunner.query(`DROP FUNCTION "session_storage_release"()`);
    await queryRunner.query(
      `ALTER TABLE "session_storage_totals" DROP CONSTRAINT "FK_e973f18c827bf79d51a9b0e96f5"`,
    );
    await queryRunner.query(`DROP TABLE "session_storage_totals"`);
  }
}
