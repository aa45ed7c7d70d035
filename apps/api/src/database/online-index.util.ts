import type { QueryRunner } from 'typeorm';

/**
 * Index builds that do not block writes, for migrations on tables that grow (the audit log,
 * interrupts, sessions). `CREATE INDEX CONCURRENTLY` cannot run in a transaction: a migration
 * using these declares `transaction = false`, and each statement commits on its own. The
 * migration can then stop half-way (a crash, a lost connection) without being recorded as
 * applied, so every step is written to be run again: an index an interrupted build left INVALID
 * is dropped and built anew, one already valid is kept.
 *
 * The name is interpolated into SQL: pass literals only (they are checked).
 */
export async function createIndexConcurrently(
  queryRunner: QueryRunner,
  name: string,
  definition: string,
): Promise<void> {
  const state = await indexState(queryRunner, name);
  if (state === 'valid') return;
  if (state === 'invalid')
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "${checked(name)}"`);
  await queryRunner.query(`CREATE INDEX CONCURRENTLY "${checked(name)}" ${definition}`);
}

export async function dropIndexConcurrently(queryRunner: QueryRunner, name: string): Promise<void> {
  await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "${checked(name)}"`);
}

/**
 * Replaces the index `name` by one built from `definition`, keeping the name, with an index
 * serving the queries at every moment: the new one is built beside the old under a temporary
 * name, then the old is dropped and the new renamed. Run again after an interruption, it picks up
 * where it stopped (at worst, after the rename, it builds the index once more).
 */
export async function replaceIndexConcurrently(
  queryRunner: QueryRunner,
  name: string,
  definition: string,
): Promise<void> {
  const next = `${name}_next`;
  await createIndexConcurrently(queryRunner, next, definition);
  await dropIndexConcurrently(queryRunner, name);
  await queryRunner.query(`ALTER INDEX "${checked(next)}" RENAME TO "${checked(name)}"`);
}

/**
 * A retention job's walk over a table appended in time order: a BRIN index on `created_at`,
 * `<table>_created_idx` (block ranges summarise it in a few pages; an insert pays almost nothing
 * for it, where a b-tree would add an entry to each), built CONCURRENTLY.
 */
export async function createCreatedAtBrinIndex(
  queryRunner: QueryRunner,
  table: string,
): Promise<void> {
  await createIndexConcurrently(
    queryRunner,
    `${table}_created_idx`,
    `ON "${checked(table)}" USING brin ("created_at")`,
  );
}

export async function dropCreatedAtBrinIndex(
  queryRunner: QueryRunner,
  table: string,
): Promise<void> {
  await dropIndexConcurrently(queryRunner, `${table}_created_idx`);
}

async function indexState(
  queryRunner: QueryRunner,
  name: string,
): Promise<'absent' | 'valid' | 'invalid'> {
  const rows: { valid: boolean }[] = await queryRunner.query(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [checked(name)],
  );
  if (rows.length === 0) return 'absent';
  return rows[0].valid ? 'valid' : 'invalid';
}

function checked(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Not an index name: ${name}`);
  return name;
}
