import { MigrationInterface, QueryRunner } from 'typeorm';
import { createCreatedAtBrinIndex, dropCreatedAtBrinIndex } from '../online-index.util';

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
    await createCreatedAtBrinIndex(queryRunner, 'classification_matches');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropCreatedAtBrinIndex(queryRunner, 'classification_matches');
  }
}
