import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexConcurrently,
  dropIndexConcurrently,
  replaceIndexConcurrently,
} from '../online-index.util';

/**
 * Title search at 100,000 interrupts (BENCHMARKS.md, "The inbox"):
 * - The word index keyed by organisation, as the audit log's is (migration 1795330000000, whose
 *   `audit_log_search_keys` this reuses): a GIN index over (organisation_id, title_search)
 *   intersects every search with the organisation's posting list — all its interrupts — which
 *   made a two-word search take 18 ms. `<organisation id>:<word>` keys give each organisation
 *   posting lists of its own.
 * - The listing indexes carry the title words (INCLUDE), so the ordered walk a search starts
 *   with reads the index alone: a tenth of the cost of visiting each interrupt's row.
 *
 * Outside a transaction, CONCURRENTLY: interrupts keep being opened and decided while the
 * indexes build, and a listing index is replaced by building its successor beside it.
 */
const LISTING_INDEXES = [
  ['interrupts_organisation_created_idx', '"organisation_id", "created_at", "id"'],
  ['interrupts_organisation_status_created_idx', '"organisation_id", "status", "created_at", "id"'],
] as const;

export class InboxTitleSearchKeys1795351300000 implements MigrationInterface {
  name = 'InboxTitleSearchKeys1795351300000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      queryRunner,
      'interrupts_title_search_keys_idx',
      `ON "interrupts" USING gin ("audit_log_search_keys"("organisation_id", "title_search"))`,
    );
    await dropIndexConcurrently(queryRunner, 'interrupts_organisation_title_search_idx');
    for (const [name, columns] of LISTING_INDEXES) {
      await replaceIndexConcurrently(
        queryRunner,
        name,
        `ON "interrupts" (${columns}) INCLUDE ("title_search")`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      queryRunner,
      'interrupts_organisation_title_search_idx',
      `ON "interrupts" USING gin ("organisation_id", "title_search")`,
    );
    await dropIndexConcurrently(queryRunner, 'interrupts_title_search_keys_idx');
    for (const [name, columns] of LISTING_INDEXES) {
      await replaceIndexConcurrently(queryRunner, name, `ON "interrupts" (${columns})`);
    }
  }
}
