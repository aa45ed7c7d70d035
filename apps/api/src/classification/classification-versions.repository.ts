import { type Queryable, queryRows } from '../database/query-rows.util';

/**
 * The `classification_versions` table's one owner. Its writer is a `WITH` item that raises the organisation's
 * version (its id is parameter `$1`), prefixed to every statement that writes its rules or its
 * classifier, so no write can leave it behind. Its row lock holds to the commit, so writers of one
 * organisation commit in the order of their versions. `when` (SQL) raises it only if true.
 */
export function bumpVersion(when = 'true'): string {
  return `bump_version AS (
    INSERT INTO classification_versions (organisation_id, version) SELECT $1::uuid, 1 WHERE ${when}
    ON CONFLICT (organisation_id) DO UPDATE SET version = classification_versions.version + 1)`;
}

/**
 * The organisation's version ('0' before its first write). Read it before the rules and the
 * classifier, never after: what is read then reflects at least this version, so a cache entry is
 * never newer than it says, only possibly older (and then read again).
 */
export async function readVersion(db: Queryable, organisationId: string): Promise<string> {
  const [row] = await queryRows<{ version: string }>(
    db,
    `SELECT version::text AS version FROM classification_versions WHERE organisation_id = $1`,
    [organisationId],
  );
  return row?.version ?? '0';
}
