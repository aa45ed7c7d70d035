import type { EntityManager } from 'typeorm';
import type { Plan } from '@interlock/domain';
import { type Queryable, queryRows } from '../database/query-rows.util';

/**
 * The `memberships` table's one owner: a user's membership of an organisation, with its role.
 * A membership is current while `left_at` is null; ending one keeps the row (when the person
 * joined and left) and lets go of the role and the teams.
 */

/**
 * Makes `userId` a current member of the organisation with `roleId`: a new membership, or a
 * former one begun anew. `already` when they are a current member (nothing changes).
 */
export async function beginMembership(
  tx: EntityManager,
  organisationId: string,
  userId: string,
  roleId: string,
): Promise<'joined' | 'rejoined' | 'already'> {
  const rows = await queryRows<{ inserted: boolean }>(
    tx,
    `INSERT INTO memberships (organisation_id, user_id, role_id) VALUES ($1, $2, $3)
     ON CONFLICT (organisation_id, user_id) DO UPDATE
        SET role_id = EXCLUDED.role_id, joined_at = now(), left_at = NULL
      WHERE memberships.left_at IS NOT NULL
     RETURNING (xmax = 0) AS inserted`,
    [organisationId, userId, roleId],
  );
  const [row] = rows;
  if (row === undefined) return 'already';
  return row.inserted ? 'joined' : 'rejoined';
}

/** Ends a current membership: the person leaves the organisation and its teams; the user stays. */
export async function endMembership(tx: EntityManager, organisationId: string, userId: string): Promise<void> {
  await tx.query(`DELETE FROM team_members WHERE organisation_id = $1 AND member_id = $2`, [organisationId, userId]);
  await tx.query(
    `UPDATE memberships SET left_at = now(), role_id = NULL WHERE organisation_id = $1 AND user_id = $2 AND left_at IS NULL`,
    [organisationId, userId],
  );
}

/** Whether the email address belongs to a current member of the organisation. */
export async function isCurrentMemberByEmail(db: EntityManager, organisationId: string, email: string): Promise<boolean> {
  const rows: unknown[] = await db.query(
    `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organisation_id = $1 AND u.email = $2 AND m.left_at IS NULL`,
    [organisationId, email],
  );
  return rows.length > 0;
}

export interface UserOrganisationRow {
  id: string;
  name: string;
  plan: Plan;
  role_id: string;
  role_name: string;
  joined_at: Date;
}

/** The organisations a user is a current member of, with their role in each, in the order they joined. */
export async function organisationsOfUser(db: EntityManager, userId: string): Promise<UserOrganisationRow[]> {
  return db.query(
    `SELECT o.id, o.name, o.plan, m.role_id, r.name AS role_name, m.joined_at
       FROM memberships m
       JOIN organisations o ON o.id = m.organisation_id
       JOIN roles r ON r.organisation_id = m.organisation_id AND r.id = m.role_id
      WHERE m.user_id = $1 AND m.left_at IS NULL
      ORDER BY m.joined_at, o.id`,
    [userId],
  );
}

/**
 * A current member of the organisation (their user id and name), locked against removal until
 * the transaction ends; undefined when `userId` is no current member of it.
 */
export async function lockCurrentMember(db: Queryable, organisationId: string, userId: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await queryRows<{ id: string; name: string }>(
    db,
    `SELECT u.id, u.name FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organisation_id = $1 AND m.user_id = $2 AND m.left_at IS NULL
        FOR KEY SHARE OF m`,
    [organisationId, userId],
  );
  return row;
}
