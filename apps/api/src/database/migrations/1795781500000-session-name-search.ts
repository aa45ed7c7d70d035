import { MigrationInterface, QueryRunner } from 'typeorm';
import { searchWords } from '@interlock/audit';
import { createIndexConcurrently, dropIndexConcurrently } from '../online-index.util';

/**
 * Sessions found by name (`GET /api/sessions?q=`, issue 31 item 5), as interrupts are by title
 * (migrations 1795351200000, 1795351300000):
 * - `name_search` holds the name's folded words (searchWords, as titles and the audit log's).
 * - A GIN index over them keyed by organisation (`<organisation id>:<word>`, the audit log's
 *   `audit_log_search_keys`), so a search reads its own organisation's posting lists only. A
 *   search walks the newest sessions first and asks this index only when matches are scarce.
 *
 * Outside a transaction, so neither the backfill nor the index build holds back sessions being
 * started and ended: the backfill commits a batch at a time (in key order, so a name without
 * words is passed once), the index is built CONCURRENTLY. Each step can run again after an
 * interruption. A session an instance of the previous release starts while this runs gets no
 * words (that release does not know the column): it is still found by its id.
 */
export class SessionNameSearch1795781500000 implements MigrationInterface {
  name = 'SessionNameSearch1795781500000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    // A constant default: no table rewrite, the lock is held for an instant.
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "name_search" tsvector NOT NULL DEFAULT ''::tsvector`,
    );
    let after = ['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000000'];
    for (;;) {
      const rows: { organisation_id: string; id: string; name: string }[] = await queryRunner.query(
        `SELECT organisation_id, id, name FROM "sessions"
            WHERE (organisation_id, id) > ($1::uuid, $2::uuid) ORDER BY organisation_id, id LIMIT 1000`,
        after,
      );
      if (rows.length === 0) break;
      const last = rows[rows.length - 1];
      after = [last.organisation_id, last.id];
      await queryRunner.query(
        `UPDATE "sessions" s SET "name_search" = array_to_tsvector(string_to_array(w.words, ' '))
           FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS w(organisation_id, id, words)
          WHERE s.organisation_id = w.organisation_id AND s.id = w.id AND w.words <> ''`,
        [
          rows.map((r) => r.organisation_id),
          rows.map((r) => r.id),
          rows.map((r) => searchWords(r.name).join(' ')),
        ],
      );
    }
    await createIndexConcurrently(
      queryRunner,
      'sessions_name_search_keys_idx',
      `ON "sessions" USING gin ("audit_log_search_keys"("organisation_id", "name_search"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropIndexConcurrently(queryRunner, 'sessions_name_search_keys_idx');
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN IF EXISTS "name_search"`);
  }
}
