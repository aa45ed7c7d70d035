import { MigrationInterface, QueryRunner } from 'typeorm';
import { searchWords } from '@interlock/audit';

/**
 * The member read API (issue 12): the inbox's filters and the session listing, each an index
 * led by organisation_id and ending in the listing's keyset order, so every tab and filter is a
 * short ordered index walk (BENCHMARKS.md, "Inbox").
 * - Assigned to a member or team: (assignee_type, assignee_id, status, created_at, id).
 * - Unassigned, escalated: partial indexes on (status, created_at, id).
 * - Title search: `title_search` holds the title's folded words (searchWords, as the audit
 *   log's), under a GIN index led by organisation_id (btree_gin, created by the audit migration).
 * - Sessions: newest first; active ones and those with an externalId have partial indexes.
 */
export class InboxAndSessionListing1795351200000 implements MigrationInterface {
  name = 'InboxAndSessionListing1795351200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "interrupts" ADD "title_search" tsvector NOT NULL DEFAULT ''::tsvector`);
    // Existing titles, folded in JavaScript exactly as new ones are; a batch at a time.
    for (;;) {
      const rows: { organisation_id: string; id: string; title: string }[] = await queryRunner.query(
        `SELECT organisation_id, id, title FROM "interrupts" WHERE "title_search" = ''::tsvector AND title ~ '[[:alnum:]]' LIMIT 1000`,
      );
      if (rows.length === 0) break;
      await queryRunner.query(
        `UPDATE "interrupts" i SET "title_search" = array_to_tsvector(string_to_array(w.words, ' '))
           FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS w(organisation_id, id, words)
          WHERE i.organisation_id = w.organisation_id AND i.id = w.id`,
        [rows.map((r) => r.organisation_id), rows.map((r) => r.id), rows.map((r) => searchWords(r.title).join(' '))],
      );
    }
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_assignee_idx" ON "interrupts" ("organisation_id", "assignee_type", "assignee_id", "status", "created_at", "id") WHERE "assignee_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_unassigned_idx" ON "interrupts" ("organisation_id", "status", "created_at", "id") WHERE "assignee_id" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_escalated_idx" ON "interrupts" ("organisation_id", "status", "created_at", "id") WHERE "escalation_level" > 0`,
    );
    await queryRunner.query(
      `CREATE INDEX "interrupts_organisation_title_search_idx" ON "interrupts" USING gin ("organisation_id", "title_search")`,
    );
    await queryRunner.query(`CREATE INDEX "sessions_organisation_started_idx" ON "sessions" ("organisation_id", "started_at", "id") `);
    await queryRunner.query(
      `CREATE INDEX "sessions_organisation_active_idx" ON "sessions" ("organisation_id", "started_at", "id") WHERE "ended_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "sessions_organisation_external_idx" ON "sessions" ("organisation_id", "external_id", "started_at", "id") WHERE "external_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."sessions_organisation_external_idx"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_organisation_active_idx"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_organisation_started_idx"`);
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_title_search_idx"`);
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_escalated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_unassigned_idx"`);
    await queryRunner.query(`DROP INDEX "public"."interrupts_organisation_assignee_idx"`);
    await queryRunner.query(`ALTER TABLE "interrupts" DROP COLUMN "title_search"`);
  }
}
