import { MigrationInterface, QueryRunner } from 'typeorm';
import { PER_ENTRY_APPEND } from './1795300000000-audit-log-chain-and-search';

/**
 * Appends cost the same per entry however many one transaction writes. The append trigger used
 * to update the organisation's head row, and the words trigger each word's count, once per
 * entry: within one transaction every update leaves a row version that cannot be pruned until
 * it ends, and each next update walks that chain, so 50,000 entries in one transaction took
 * over 11 minutes against 41 s in transactions of 1,000.
 *
 * Now no row is updated per entry:
 * - The BEFORE INSERT trigger still locks the head row (held to commit: an organisation's
 *   writers append one after another), but takes the predecessor from this transaction's own
 *   newest entry when it has one (the (organisation_id, seq) index), and the head otherwise.
 * - A constraint trigger deferred to commit brings the head up to the newest entry and adds the
 *   transaction's words to the lexicon, once per transaction and organisation: an INSERT …
 *   SELECT over the entries the head does not cover yet (seq > last_seq), grouped by word.
 *   The other events of the transaction find the head already current and do nothing.
 * Entries, sequence numbers, hashes, timestamps and word counts are what they were.
 */
export class AuditLogLinearAppends1795350000000 implements MigrationInterface {
  name = 'AuditLogLinearAppends1795350000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "audit_log_entries_append"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head "audit_log_heads"%ROWTYPE;
  prev_seq bigint;
  prev_hash text;
  prev_created_at timestamptz;
  now_ms timestamptz := date_trunc('milliseconds', clock_timestamp());
BEGIN
  SELECT * INTO head FROM "audit_log_heads" WHERE organisation_id = NEW.organisation_id FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO "audit_log_heads" (organisation_id, last_seq, last_hash, last_created_at)
      VALUES (NEW.organisation_id, 0, '', '-infinity')
      ON CONFLICT (organisation_id) DO NOTHING;
    SELECT * INTO head FROM "audit_log_heads" WHERE organisation_id = NEW.organisation_id FOR UPDATE;
  END IF;
  -- The head moves at commit; until then this transaction's newest entry is the predecessor.
  SELECT seq, hash, created_at INTO prev_seq, prev_hash, prev_created_at
    FROM "audit_log_entries"
   WHERE organisation_id = NEW.organisation_id AND seq > head.last_seq
   ORDER BY seq DESC LIMIT 1;
  IF NOT FOUND THEN
    prev_seq := head.last_seq;
    prev_hash := head.last_hash;
    prev_created_at := head.last_created_at;
  END IF;
  NEW.seq := prev_seq + 1;
  NEW.created_at := greatest(now_ms, prev_created_at);
  NEW.hash := "audit_log_entry_digest"(prev_hash, NEW);
  RETURN NEW;
END $$`);

    await queryRunner.query(`CREATE FUNCTION "audit_log_entries_commit"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head "audit_log_heads"%ROWTYPE;
  newest_seq bigint;
  newest_hash text;
  newest_created_at timestamptz;
BEGIN
  SELECT * INTO head FROM "audit_log_heads" WHERE organisation_id = NEW.organisation_id;
  SELECT seq, hash, created_at INTO newest_seq, newest_hash, newest_created_at
    FROM "audit_log_entries"
   WHERE organisation_id = NEW.organisation_id
   ORDER BY seq DESC LIMIT 1;
  IF newest_seq IS NULL OR newest_seq <= head.last_seq THEN
    RETURN NULL; -- an earlier event of this transaction brought the head up to date
  END IF;
  -- tsvector_to_array holds each word once per entry: count(*) is the number of entries.
  INSERT INTO "audit_log_words" (organisation_id, word, entries)
    SELECT NEW.organisation_id, w, count(*)
      FROM "audit_log_entries" e, unnest(tsvector_to_array(e.search)) w
     WHERE e.organisation_id = NEW.organisation_id AND e.seq > head.last_seq AND e.seq <= newest_seq
     GROUP BY w
    ON CONFLICT (organisation_id, word) DO UPDATE SET entries = "audit_log_words".entries + EXCLUDED.entries;
  UPDATE "audit_log_heads"
     SET last_seq = newest_seq, last_hash = newest_hash, last_created_at = newest_created_at
   WHERE organisation_id = NEW.organisation_id;
  RETURN NULL;
END $$`);
    await queryRunner.query(`DROP TRIGGER "audit_log_entries_words" ON "audit_log_entries"`);
    await queryRunner.query(`DROP FUNCTION "audit_log_entries_words"()`);
    await queryRunner.query(
      `CREATE CONSTRAINT TRIGGER "audit_log_entries_commit" AFTER INSERT ON "audit_log_entries"
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "audit_log_entries_commit"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "audit_log_entries_commit" ON "audit_log_entries"`);
    await queryRunner.query(`DROP FUNCTION "audit_log_entries_commit"()`);
    await queryRunner.query(`CREATE FUNCTION "audit_log_entries_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- tsvector_to_array holds each word once, always in the same order: one more entry per word.
  INSERT INTO "audit_log_words" (organisation_id, word, entries)
    SELECT NEW.organisation_id, w, 1 FROM unnest(tsvector_to_array(NEW.search)) w
    ON CONFLICT (organisation_id, word) DO UPDATE SET entries = "audit_log_words".entries + 1;
  RETURN NULL;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_log_entries_words" AFTER INSERT ON "audit_log_entries" FOR EACH ROW EXECUTE FUNCTION "audit_log_entries_words"()`,
    );
    await queryRunner.query(`CREATE OR REPLACE FUNCTION ${PER_ENTRY_APPEND}`);
  }
}
