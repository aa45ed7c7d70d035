import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';
import { DomainError } from '@interlock/domain';

/**
 * The `users` table's one owner: people, one per email address across the service. Functions
 * over the caller's connection or transaction, so sign-up, invitations and the operator CLI
 * share them.
 */

/** Normalised form of an email address: trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const accountExists = (message = 'An account with this email already exists.') => new DomainError('CONFLICT', message);

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
}

/** Creates a user; 409 when the email already has an account (also when a concurrent insert wins). */
export async function insertUser(
  tx: EntityManager,
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

export async function findUserByEmail(db: EntityManager, email: string): Promise<UserRow | undefined> {
  const [row]: UserRow[] = await db.query(`SELECT id, email, name, password_hash FROM users WHERE email = $1`, [
    normaliseEmail(email),
  ]);
  return row;
}

export async function findUser(db: EntityManager, id: string): Promise<Omit<UserRow, 'password_hash'> | undefined> {
  const [row]: UserRow[] = await db.query(`SELECT id, email, name FROM users WHERE id = $1`, [id]);
  return row;
}
