import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many of an organisation's entries hold each word, kept by the append trigger beside the
 * word itself. A search reads the counts of its words before it runs and picks its plan from
 * them: the word index when few entries can match, an ordered walk sized to the words' density
 * when many do (see libs/audit/src/search-plan.ts). An organisation's writers already append
 * one after another (the head row lock), so the counts add no contention of their own.
 */
export class AuditLogWordCounts1795340000000 implements MigrationInterface {
  name = 'AuditLogWordCounts1795340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "audit_log_words" ADD COLUMN "entries" bigint NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`UPDATE "audit_log_words" w SET entries = c.n
      FROM (SELECT organisation_id, word, count(*) AS n
              FROM "audit_log_entries", unnest(tsvector_to_array(search)) word GROUP BY 1, 2) c
     WHERE w.organisation_id = c.organisation_id AND w.word = c.word`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "audit_log_entries_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- tsvector_to_array holds each word once, always in the same order: one more entry per word.
  INSERT INTO "audit_log_words" (organisation_id, word, entries)
    SELECT NEW.organisation_id, w, 1 FROM unnest(tsvector_to_array(NEW.search)) w
    ON CONFLICT (organisation_id, word) DO UPDATE SET entries = "audit_log_words".entries + 1;
  RETURN NULL;
END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "audit_log_entries_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "audit_log_words" (organisation_id, word)
    SELECT NEW.organisation_id, w FROM unnest(tsvector_to_array(NEW.search)) w
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`);
    await queryRunner.query(`ALTER TABLE "audit_log_words" DROP COLUMN "entries"`);
  }
}
