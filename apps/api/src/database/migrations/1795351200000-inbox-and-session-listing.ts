import { MigrationInterface, QueryRunner } from 'typeorm';
import { searchWords } from '@interlock/audit';
import { createIndexConcurrently, dropIndexConcurrently } from '../online-index.util';

/** name → definition, built CONCURRENTLY in this order. */
const INDEXES: readonly (readonly [string, string])[] = [
  [
    'interrupts_organisation_assignee_idx',
    `ON "interrupts" ("organisation_id", "assignee_type", "assignee_id", "status", "created_at", "id") WHERE "assignee_id" IS NOT NULL`,
  ],
  [
    'interrupts_organisation_unassigned_idx',
    `ON "interrupts" ("organisation_id", "status", "created_at", "id") WHERE "assignee_id" IS NULL`,
  ],
  [
    'interrupts_organisation_escalated_idx',
    `ON "interrupts" ("organisation_id", "status", "created_at", "id") WHERE "escalation_level" > 0`,
  ],
  [
    'interrupts_organisation_title_search_idx',
    `ON "interrupts" USING gin ("organisation_id", "title_search")`,
  ],
  ['sessions_organisation_started_idx', `ON "sessions" ("organisation_id", "started_at", "id")`],
  [
    'sessions_organisation_active_idx',
    `ON "sessions" ("organisation_id", "started_at", "id") WHERE "ended_at" IS NULL`,
  ],
  [
    'sessions_organisation_external_idx',
    `ON "sessions" ("organisation_id", "external_id", "started_at", "id") WHERE "external_id" IS NOT NULL`,
  ],
];

/**
 * The member read API (issue 12): the inbox's filters and the session listing, each an index
 * led by organisation_id and ending in the listing's keyset order, so every tab and filter is a
 * short ordered index walk (BENCHMARKS.md, "Inbox").
 * - Assigned to a member or team: (assignee_type, assignee_id, status, created_at, id).
 * - Unassigned, escalated: partial indexes on (status, created_at, id).
 * - Title search: `title_search` holds the title's folded words (searchWords, as the audit
 *   log's), under a GIN index led by organisation_id (btree_gin, created by the audit migration).
 * - Sessions: newest first; active ones and those with an externalId have partial indexes.
 *
 * Outside a transaction, so that neither the backfill nor the index builds hold back writes to
 * interrupts and sessions: the backfill commits a batch at a time, the indexes are built
 * CONCURRENTLY. Each step can run again after an interruption.
 */
export class InboxAndSessionListing1795351200000 implements MigrationInterface {
  name = 'InboxAndSessionListing1795351200000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    // A constant default: no table rewrite, the lock is held for an instant.
    await queryRunner.query(
      `ALTER TABLE "interrupts" ADD COLUMN IF NOT EXISTS "title_search" tsvector NOT NULL DEFAULT ''::tsvector`,
    );
    // Existing titles, folded in JavaScript exactly as new ones are; a batch at a time.
    for (;;) {
      const rows: { organisation_id: string; id: string; title: string }[] =
        await queryRunner.query(
          `SELECT organisation_id, id, title FROM "interrupts" WHERE "title_search" = ''::tsvector AND title ~ '[[:alnum:]]' LIMIT 1000`,
        );
      if (rows.length === 0) break;
      await queryRunner.query(
        `UPDATE "interrupts" i SET "title_search" = array_to_tsvector(string_to_array(w.words, ' '))
           FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS w(organisation_id, id, words)
          WHERE i.organisation_id = w.organisation_id AND i.id = w.id`,
        [
          rows.map((r) => r.organisation_id),
          rows.map((r) => r.id),
          rows.map((r) => searchWords(r.title).join(' ')),
        ],
      );
    }
    for (const [name, definition] of INDEXES)
      await createIndexConcurrently(queryRunner, name, definition);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await dropIndexConcurrently(queryRunner, name);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN IF EXISTS "title_search"`);
  }
}
