import { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '../online-index.util';

/**
 * The retention job's walk (SPEC §8d, `CLASSIFICATION_MATCH_RETENTION`): rule matches older than
 * the retention, found by `created_at` across organisations. A BRIN index: matches are written
 * with their interrupt, in time order, so a few pages summarise the table and the create path
 * pays almost nothing for it. Built CONCURRENTLY: interrupts keep being opened.
 */
export class ClassificationMatchRetention1795772000000 implements MigrationInterface {
  name = 'ClassificationMatchRetention1795772000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      queryRunner,
      'classification_matches_created_idx',
      `ON "classification_matches" USING brin ("created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropIndexConcurrently(queryRunner, 'classification_matches_created_idx');
  }
}
