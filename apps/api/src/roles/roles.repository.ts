import { Injectable } from '@nestjs/common';
import type { BuiltInRoleKey, Permission } from '@interlock/domain';
import { type Queryable, queryRows } from '../database/query-rows.util';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';

export interface RoleRow {
  id: string;
  name: string;
  permissions: string[];
  built_in: BuiltInRoleKey | null;
  created_at: Date;
}

export type RoleLock = 'FOR UPDATE' | 'FOR NO KEY UPDATE' | 'FOR KEY SHARE';

const LISTED = `id, name, permissions, built_in, created_at`;
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The roles table joined beside another owner's rows, for reads that show a role's name or
 * permissions and must stay one statement (the sign-in lookup on every cookie request, a member
 * locked with their role, the member list, an invitation found by its token):
 * `JOIN roles <alias> ON <alias>.organisation_id = <organisationIdColumn> AND <alias>.id = <roleIdColumn>`.
 * The composing owner selects `<alias>.name`, `<alias>.permissions` and `<alias>.built_in`.
 */
export function joinRoles(
  alias: string,
  organisationIdColumn: string,
  roleIdColumn: string,
): string {
  return `JOIN roles ${alias} ON ${alias}.organisation_id = ${organisationIdColumn} AND ${alias}.id = ${roleIdColumn}`;
}

/**
 * The `roles` table's one owner. Every method takes the handle to run on (the caller's
 * transaction, or the data source for a plain read) and the organisation first.
 */
@Injectable()
export class RolesRepository {
  /** Built-in roles first (Owner, Developer, Manager), then custom ones, oldest first. */
  list(db: Queryable, organisationId: string): Promise<RoleRow[]> {
    return queryRows<RoleRow>(
      db,
      `SELECT ${LISTED} FROM roles
        WHERE organisation_id = $1
        ORDER BY CASE built_in WHEN 'owner' THEN 0 WHEN 'developer' THEN 1 WHEN 'manager' THEN 2 ELSE 3 END,
                 created_at, name`,
      [organisationId],
    );
  }

  /** The role, locked as asked until the transaction ends; undefined when it is not the organisation's. */
  async lock(
    db: Queryable,
    organisationId: string,
    id: string,
    lock: RoleLock,
  ): Promise<RoleRow | undefined> {
    const [row] = await queryRows<RoleRow>(
      db,
      `SELECT ${LISTED} FROM roles WHERE organisation_id = $1 AND id = $2 ${lock}`,
      [organisationId, id],
    );
    return row;
  }

  /** The organisation's built-in role `key` (its id), locked as asked until the transaction ends. */
  async lockBuiltIn(
    db: Queryable,
    organisationId: string,
    key: BuiltInRoleKey,
    lock: RoleLock,
  ): Promise<{ id: string } | undefined> {
    const [row] = await queryRows<{ id: string }>(
      db,
      `SELECT id FROM roles WHERE organisation_id = $1 AND built_in = $2 ${lock}`,
      [organisationId, key],
    );
    return row;
  }

  /** The new role, or undefined when the organisation has one of that name. */
  async insert(
    db: Queryable,
    organisationId: string,
    role: {
      id: string;
      name: string;
      permissions: readonly Permission[];
      builtIn?: BuiltInRoleKey;
    },
  ): Promise<RoleRow | undefined> {
    const [created] = await queryRows<RoleRow>(
      db,
      `INSERT INTO roles (organisation_id, id, name, permissions, built_in) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organisation_id, name) DO NOTHING
       RETURNING ${LISTED}`,
      [organisationId, role.id, role.name, [...role.permissions], role.builtIn ?? null],
    );
    return created;
  }

  /** The role as changed, or undefined when another role of the organisation has the name. */
  async update(
    db: Queryable,
    organisationId: string,
    id: string,
    changes: { name: string; permissions: readonly Permission[] },
  ): Promise<RoleRow | undefined> {
    try {
      const [updated] = await queryRows<RoleRow>(
        db,
        `UPDATE roles SET name = $3, permissions = $4 WHERE organisation_id = $1 AND id = $2 RETURNING ${LISTED}`,
        [organisationId, id, changes.name, [...changes.permissions]],
      );
      return updated;
    } catch (error) {
      if (hasSqlState(error, UNIQUE_VIOLATION)) return undefined;
      throw error;
    }
  }

  /** Deletes the role; false when a membership still refers to it (the foreign key refuses). */
  async delete(db: Queryable, organisationId: string, id: string): Promise<boolean> {
    try {
      await db.query(`DELETE FROM roles WHERE organisation_id = $1 AND id = $2`, [
        organisationId,
        id,
      ]);
      return true;
    } catch (error) {
      if (hasSqlState(error, FOREIGN_KEY_VIOLATION)) return false;
      throw error;
    }
  }
}
