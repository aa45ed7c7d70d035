import { randomUUID } from 'node:crypto';
import { type Queryable, queryRows } from '../database/query-rows.util';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';
import { DomainError } from '@interlock/domain';

/**
 * The `users` table's one owner: people, one per email address across the service. Functions
 * over the caller's connection or transaction, so sign-up, invitations and the operator CLI
 * share them.
 */

/**
 * The users table joined beside another owner's rows, for reads that show a person's name and
 * email and must stay one statement (the sign-in lookup on every cookie request, a member locked
 * with its name, the member list): `JOIN users <alias> ON <alias>.id = <userIdColumn>`. The
 * composing owner selects `<alias>.name` and `<alias>.email` from it, and nothing else.
 */
export function joinUsers(alias: string, userIdColumn: string): string {
  return `JOIN users ${alias} ON ${alias}.id = ${userIdColumn}`;
}

/** Normalised form of an email address: trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const accountExists = (message = 'An account with this email already exists.') =>
  new DomainError('CONFLICT', message);

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  /** Null while the address is unproven (SPEC §8f). */
  email_verified_at: Date | null;
}

/** Creates a user; 409 when the email already has an account (also when a concurrent insert wins). */
export async function insertUser(
  tx: Queryable,
  user: { email: string; name: string; passwordHash: string },
  taken: () => DomainError = accountExists,
): Promise<string> {
  const id = randomUUID();
  try {
    await tx.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)`, [
      id,
      normaliseEmail(user.email),
      user.name,
      user.passwordHash,
    ]);
  } catch (error) {
    if (hasSqlState(error, UNIQUE_VIOLATION)) throw taken();
    throw error;
  }
  return id;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await queryRows<UserRow>(
    db,
    `SELECT id, email, name, password_hash, email_verified_at FROM users WHERE email = $1`,
    [normaliseEmail(email)],
  );
  return row;
}

/**
 * Sets a user's password hash; with `expected`, only while the stored hash is still that one
 * (an upgrade at sign-in must not undo a change made meanwhile). Whether a row changed.
 */
export async function replacePasswordHash(
  db: Queryable,
  userId: string,
  passwordHash: string,
  expected?: string,
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    `UPDATE users SET password_hash = $2
      WHERE id = $1 AND ($3::text IS NULL OR password_hash = $3) RETURNING id`,
    [userId, passwordHash, expected ?? null],
  );
  return rows.length === 1;
}

/** A user with their password hash, by id (changing a password checks the current one). */
export async function findUserWithPassword(
  db: Queryable,
  id: string,
): Promise<UserRow | undefined> {
  const [row] = await queryRows<UserRow>(
    db,
    `SELECT id, email, name, password_hash, email_verified_at FROM users WHERE id = $1`,
    [id],
  );
  return row;
}

export async function findUser(
  db: Queryable,
  id: string,
): Promise<Omit<UserRow, 'password_hash'> | undefined> {
  const [row] = await queryRows<UserRow>(
    db,
    `SELECT id, email, name, email_verified_at FROM users WHERE id = $1`,
    [id],
  );
  return row;
}

/**
 * Records that the person proved `email` (a link emailed to it was used), if it is still their
 * address and not yet proven. Whether it became verified now.
 */
export async function markEmailVerified(
  db: Queryable,
  userId: string,
  email: string,
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    `UPDATE users SET email_verified_at = now()
      WHERE id = $1 AND email = $2 AND email_verified_at IS NULL RETURNING id`,
    [userId, email],
  );
  return rows.length === 1;
}

/**
 * Moves a person to another address, which a link emailed to it just proved (so it is verified
 * now). False when another account has that address.
 */
export async function replaceEmail(db: Queryable, userId: string, email: string): Promise<boolean> {
  try {
    const rows = await queryRows<{ id: string }>(
      db,
      `UPDATE users SET email = $2, email_verified_at = now() WHERE id = $1 RETURNING id`,
      [userId, normaliseEmail(email)],
    );
    return rows.length === 1;
  } catch (error) {
    if (hasSqlState(error, UNIQUE_VIOLATION)) return false;
    throw error;
  }
}

/** Renames a person; their former name, or undefined when it was this one already (or no such person). */
export async function renameUser(
  db: Queryable,
  userId: string,
  name: string,
): Promise<string | undefined> {
  const [row] = await queryRows<{ from: string }>(
    db,
    `UPDATE users u SET name = $2
       FROM (SELECT id, name FROM users WHERE id = $1 FOR UPDATE) old
      WHERE u.id = old.id AND old.name <> $2
      RETURNING old.name AS "from"`,
    [userId, name],
  );
  return row?.from;
}
