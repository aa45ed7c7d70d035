import type { BuiltInRoleKey, Plan } from '@interlock/domain';
import { hasRow, type Queryable, queryRows } from '../database/query-rows.util';
import { joinOrganisations } from '../organisation/organisations.repository';
import { joinRoles } from '../roles/roles.repository';
import { joinUsers, normaliseEmail } from '../users/users.repository';

/**
 * The `memberships` table's one owner: a user's membership of an organisation, with its role.
 * A membership is current while `left_at` is null; ending one keeps the row (when the person
 * joined and left) and lets go of the role (the teams are their owner's: `TeamsRepository`).
 *
 * Reads that show the member's name or role compose the `users`, `roles` and `organisations`
 * owners' join fragments (`joinUsers`, `joinRoles`, `joinOrganisations`) into one statement
 * rather than asking those owners in a second round trip: they lock the membership row with
 * what they show (a member changed, removed or assigned), or run on every cookie request.
 */

/**
 * Makes `userId` a current member of the organisation with `roleId`: a new membership, or a
 * former one begun anew. `already` when they are a current member (nothing changes).
 */
export async function beginMembership(
  tx: Queryable,
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

/** Ends a current membership: the person leaves the organisation and lets go of the role; the user stays. */
export async function endMembership(
  tx: Queryable,
  organisationId: string,
  userId: string,
): Promise<void> {
  await tx.query(
    `UPDATE memberships SET left_at = now(), role_id = NULL WHERE organisation_id = $1 AND user_id = $2 AND left_at IS NULL`,
    [organisationId, userId],
  );
}

/** Gives a current member another role. */
export async function setMemberRole(
  tx: Queryable,
  organisationId: string,
  userId: string,
  roleId: string,
): Promise<void> {
  await tx.query(
    `UPDATE memberships SET role_id = $3 WHERE organisation_id = $1 AND user_id = $2`,
    [organisationId, userId, roleId],
  );
}

/** How many memberships hold the role (besides `exceptUserId`'s, when given). */
export async function countRoleHolders(
  db: Queryable,
  organisationId: string,
  roleId: string,
  exceptUserId?: string,
): Promise<number> {
  const [{ count }] = await queryRows<{ count: number }>(
    db,
    `SELECT count(*)::int AS count FROM memberships
      WHERE organisation_id = $1 AND role_id = $2 AND ($3::uuid IS NULL OR user_id <> $3::uuid)`,
    [organisationId, roleId, exceptUserId ?? null],
  );
  return count;
}

/** Whether the email address belongs to a current member of the organisation. */
export async function isCurrentMemberByEmail(
  db: Queryable,
  organisationId: string,
  email: string,
): Promise<boolean> {
  return hasRow(
    db,
    `SELECT 1 FROM memberships m ${joinUsers('u', 'm.user_id')}
      WHERE m.organisation_id = $1 AND u.email = $2 AND m.left_at IS NULL`,
    [organisationId, email],
  );
}

/** A current member as listed: their user (id, email, name) and their membership (role, when they joined). */
export interface MemberRow {
  id: string;
  email: string;
  name: string;
  role_id: string;
  role_name: string;
  created_at: Date;
}

/** A current member with their role's permissions and built-in key, locked for a change. */
export interface LockedMemberRow extends MemberRow {
  permissions: string[];
  built_in: BuiltInRoleKey | null;
}

const LISTED = `u.id, u.email, u.name, m.role_id, r.name AS role_name, m.joined_at AS created_at`;
const CURRENT_MEMBERS = `memberships m
         ${joinUsers('u', 'm.user_id')}
         ${joinRoles('r', 'm.organisation_id', 'm.role_id')}`;

/** The organisation's current members (`owners`: its Owners only), in the order they joined. */
export function listCurrentMembers(
  db: Queryable,
  organisationId: string,
  only: 'all' | 'owners' = 'all',
): Promise<MemberRow[]> {
  return queryRows<MemberRow>(
    db,
    `SELECT ${LISTED}
       FROM ${CURRENT_MEMBERS}
      WHERE m.organisation_id = $1 AND m.left_at IS NULL ${only === 'owners' ? `AND r.built_in = 'owner'` : ''}
      ORDER BY m.joined_at, u.id`,
    [organisationId],
  );
}

/** A current member with their role, the membership locked FOR UPDATE until the transaction ends. */
export async function lockMemberForChange(
  tx: Queryable,
  organisationId: string,
  userId: string,
): Promise<LockedMemberRow | undefined> {
  const [row] = await queryRows<LockedMemberRow>(
    tx,
    `SELECT ${LISTED}, r.permissions, r.built_in
       FROM ${CURRENT_MEMBERS}
      WHERE m.organisation_id = $1 AND m.user_id = $2 AND m.left_at IS NULL
      FOR UPDATE OF m`,
    [organisationId, userId],
  );
  return row;
}

export interface UserOrganisationRow {
  id: string;
  name: string;
  plan: Plan;
  role_id: string;
  role_name: string;
  /** The role's built-in key (`owner`, …), null for a custom role. */
  role_built_in: string | null;
  joined_at: Date;
}

/** The organisations a user is a current member of, with their role in each, in the order they joined. */
export function organisationsOfUser(db: Queryable, userId: string): Promise<UserOrganisationRow[]> {
  return queryRows<UserOrganisationRow>(
    db,
    `SELECT o.id, o.name, o.plan, m.role_id, r.name AS role_name, r.built_in AS role_built_in, m.joined_at
       FROM memberships m
       ${joinOrganisations('o', 'm.organisation_id')}
       ${joinRoles('r', 'm.organisation_id', 'm.role_id')}
      WHERE m.user_id = $1 AND m.left_at IS NULL
      ORDER BY m.joined_at, o.id`,
    [userId],
  );
}

/**
 * A current member of the organisation (their user id and name), locked against removal until
 * the transaction ends; undefined when `userId` is no current member of it.
 */
export function lockCurrentMember(
  db: Queryable,
  organisationId: string,
  userId: string,
): Promise<{ id: string; name: string } | undefined> {
  return lockCurrentMemberWhere(db, organisationId, 'm.user_id = $2', userId);
}

/**
 * `lockCurrentMember` by email address (stored lower-case: users.repository normalizeEmail);
 * undefined when no current member of the organisation has it.
 */
export function lockCurrentMemberByEmail(
  db: Queryable,
  organisationId: string,
  email: string,
): Promise<{ id: string; name: string } | undefined> {
  return lockCurrentMemberWhere(db, organisationId, 'u.email = $2', normaliseEmail(email));
}

/** The current member `condition` (on `$2`) names, locked as `lockCurrentMember` says. */
async function lockCurrentMemberWhere(
  db: Queryable,
  organisationId: string,
  condition: 'm.user_id = $2' | 'u.email = $2',
  value: string,
): Promise<{ id: string; name: string } | undefined> {
  const [row] = await queryRows<{ id: string; name: string }>(
    db,
    `SELECT u.id, u.name FROM memberships m ${joinUsers('u', 'm.user_id')}
      WHERE m.organisation_id = $1 AND ${condition} AND m.left_at IS NULL
        FOR KEY SHARE OF m`,
    [organisationId, value],
  );
  return row;
}

/**
 * A current member and whether their role holds `permission` now, locked like `lockCurrentMember`
 * (for a decision taken on a credential other than the sign-in: an emailed action link).
 */
export async function lockCurrentMemberHolding(
  db: Queryable,
  organisationId: string,
  userId: string,
  permission: string,
): Promise<{ id: string; name: string; holds: boolean } | undefined> {
  const [row] = await queryRows<{ id: string; name: string; holds: boolean }>(
    db,
    `SELECT u.id, u.name, $3::text = ANY(r.permissions) AS holds
       FROM memberships m ${joinUsers('u', 'm.user_id')} ${joinRoles('r', 'm.organisation_id', 'm.role_id')}
      WHERE m.organisation_id = $1 AND m.user_id = $2 AND m.left_at IS NULL
        FOR KEY SHARE OF m`,
    [organisationId, userId, permission],
  );
  return row;
}

/** Columns of `leftJoinCurrentMemberships`: the membership's organisation, role and plan (null when none matched). */
export const CURRENT_MEMBERSHIP_COLUMNS = `m.organisation_id, m.role_id, r.name AS role_name, r.permissions, o.plan`;

/**
 * For the sign-in lookup, which runs on every cookie request and stays one statement: a LEFT
 * JOIN of the current memberships of the user `userIdColumn`, with their role and their
 * organisation's plan — all of them, or only the organisation `$organisationParam` when that
 * parameter is not null. Select `CURRENT_MEMBERSHIP_COLUMNS`.
 */
export function leftJoinCurrentMemberships(
  userIdColumn: string,
  organisationParam: string,
  /** A column that, when not null, is the only organisation the memberships may be of (a sign-in session made by single sign-on). */
  onlyOrganisationColumn?: string,
): string {
  const only =
    onlyOrganisationColumn === undefined
      ? ''
      : `\n               AND (${onlyOrganisationColumn} IS NULL OR m.organisation_id = ${onlyOrganisationColumn})`;
  return `LEFT JOIN (memberships m
                    ${joinRoles('r', 'm.organisation_id', 'm.role_id')}
                    ${joinOrganisations('o', 'm.organisation_id')})
                ON m.user_id = ${userIdColumn} AND m.left_at IS NULL
               AND (${organisationParam}::uuid IS NULL OR m.organisation_id = ${organisationParam}::uuid)${only}`;
}
