/** Anything with TypeORM's raw `query` (DataSource, EntityManager, QueryRunner). */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Runs SQL and returns its rows. TypeORM's postgres driver answers UPDATE and DELETE with
 * `[rows, rowCount]` but SELECT and INSERT with the rows alone; this evens that out, so a
 * `… RETURNING` that matched nothing is an empty array, never a truthy pair.
 */
export async function queryRows<T>(
  db: Queryable,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  const result = await db.query(sql, parameters);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}

/** Whether the statement answers at least one row (a `SELECT 1 … WHERE …` asked as a yes or no). */
export async function hasRow(
  db: Queryable,
  sql: string,
  parameters: unknown[] = [],
): Promise<boolean> {
  return (await queryRows<unknown>(db, sql, parameters)).length > 0;
}
