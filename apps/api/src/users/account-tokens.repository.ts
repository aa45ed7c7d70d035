import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newSecretToken, secretTokenHash } from '../database/hashed-token.util';
import { findUserWithPassword, type UserRow } from './users.repository';
import { type Queryable, queryRows } from '../database/query-rows.util';

export type AccountTokenPurpose =
  'password_reset' | 'email_verification' | 'email_change' | 'email_revert';

/** A usable token's row: unexpired and unused. */
export interface AccountTokenRow {
  id: string;
  user_id: string;
  email: string;
}

/**
 * The `account_tokens` table's one owner: single-use tokens emailed to people (password reset
 * and email verification links), kept as their SHA-256. A reference table like `users` (ARCHITECTURE.md), so its
 * methods take no organisation.
 */
@Injectable()
export class AccountTokensRepository {
  /**
   * Makes a new token for a user and records its hash; the user's tokens that expired over a day
   * ago go at the same time. Returns the token itself, for the email and nowhere else.
   */
  async issue(
    db: Queryable,
    token: {
      userId: string;
      purpose: AccountTokenPurpose;
      /** The address the link goes to. */
      email: string;
      /** Its life from now (the database's clock, as `created_at`). */
      ttlMs: number;
    },
  ): Promise<string> {
    const value = newSecretToken();
    await db.query(
      `DELETE FROM account_tokens WHERE user_id = $1 AND expires_at < now() - interval '1 day'`,
      [token.userId],
    );
    await db.query(
      `INSERT INTO account_tokens (id, user_id, purpose, token_hash, email, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')`,
      [randomUUID(), token.userId, token.purpose, secretTokenHash(value), token.email, token.ttlMs],
    );
    return value;
  }

  /** The unused, unexpired token a hash names (changes nothing). */
  async findUsable(
    db: Queryable,
    purpose: AccountTokenPurpose,
    tokenHash: string,
  ): Promise<AccountTokenRow | undefined> {
    const [row] = await queryRows<AccountTokenRow>(
      db,
      `SELECT id, user_id, email FROM account_tokens
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()`,
      [tokenHash, purpose],
    );
    return row;
  }

  /**
   * Uses the token a hash names, if it is unused and unexpired: one statement, so of two
   * concurrent uses exactly one gets the row.
   */
  async use(
    db: Queryable,
    purpose: AccountTokenPurpose,
    tokenHash: string,
  ): Promise<AccountTokenRow | undefined> {
    const [row] = await queryRows<AccountTokenRow>(
      db,
      `UPDATE account_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING id, user_id, email`,
      [tokenHash, purpose],
    );
    return row;
  }

  /**
   * Uses a link's token (as `use`) and answers the person it was sent to — only while the
   * account still has the address it was sent to (a link proves that address, not another).
   */
  async useForPerson(
    db: Queryable,
    purpose: AccountTokenPurpose,
    tokenHash: string,
  ): Promise<UserRow | undefined> {
    const used = await this.use(db, purpose, tokenHash);
    const user = used && (await findUserWithPassword(db, used.user_id));
    return user !== undefined && user.email === used?.email ? user : undefined;
  }

  /** Retires every unused token of a user for a purpose (a new password makes older links moot). */
  /** Retires every unused token of the person's but those for `keep`. */
  async retireAllBut(db: Queryable, userId: string, keep: AccountTokenPurpose): Promise<void> {
    await db.query(
      `UPDATE account_tokens SET used_at = now()
        WHERE user_id = $1 AND purpose <> $2 AND used_at IS NULL`,
      [userId, keep],
    );
  }

  async retireAll(db: Queryable, userId: string, purpose: AccountTokenPurpose): Promise<void> {
    await db.query(
      `UPDATE account_tokens SET used_at = now()
        WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
      [userId, purpose],
    );
  }
}
