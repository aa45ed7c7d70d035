import { MigrationInterface, QueryRunner } from 'typeorm';
import { createCreatedAtBrinIndex, dropCreatedAtBrinIndex } from '../online-index.util';

/**
 * The retention job's walk (issue 34 item 3): session messages older than the retention, found
 * by `created_at` across organisations. A BRIN index: messages are appended in time order, so
 * block ranges summarise it in a few pages, and an append pays almost nothing for it (a b-tree
 * would add an entry to every insert of the busiest table). Built CONCURRENTLY: appends go on.
 */
export class SessionMessageRetention1795763000000 implements MigrationInterface {
  name = 'SessionMessageRetention1795763000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await createCreatedAtBrinIndex(queryRunner, 'session_messages');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropCreatedAtBrinIndex(queryRunner, 'session_messages');
  }
}
