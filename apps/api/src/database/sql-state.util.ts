/** Postgres SQLSTATE for a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';

/** Whether a database error, raw or wrapped by TypeORM (`driverError`), carries SQLSTATE `code`. */
export function hasSqlState(error: unknown, code: string): boolean {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  return e.code === code || e.driverError?.code === code;
}
