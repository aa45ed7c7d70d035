import { Injectable } from '@nestjs/common';
import { type Queryable, queryRows } from '../database/query-rows.util';

export interface TwoFactorRow {
  secret_sealed: Buffer;
  enabled_at: Date | null;
  last_step: string | null;
}

/**
 * For the sign-in lookup, which runs on every cookie request and stays one statement: a
 * condition, true when the user `userIdColumn` has two-factor sign-in on (a confirmed key; a
 * set-up in progress is not on).
 */
export function twoFactorOn(userIdColumn: string): string {
  return `EXISTS (SELECT 1 FROM user_two_factor tf WHERE tf.user_id = ${userIdColumn} AND tf.enabled_at IS NOT NULL)`;
}

/**
 * The owner of `user_two_factor` and `user_recovery_codes` (SPEC §8f): a person's sealed TOTP
 * secret and their recovery codes' hashes. Reference tables like `users`, so no organisation.
 * Each change that must happen once (a code's step taken, a recovery code used, a set-up
 * confirmed) is one conditional statement, so of two concurrent uses exactly one wins.
 */
@Injectable()
export class TwoFactorRepository {
  async find(db: Queryable, userId: string): Promise<TwoFactorRow | undefined> {
    const [row] = await queryRows<TwoFactorRow>(
      db,
      `SELECT secret_sealed, enabled_at, last_step FROM user_two_factor WHERE user_id = $1`,
      [userId],
    );
    return row;
  }

  /** A new set-up's secret, replacing one not yet confirmed; false when two-factor is on already. */
  async startSetup(db: Queryable, userId: string, sealed: Buffer): Promise<boolean> {
    const rows = await queryRows<{ user_id: string }>(
      db,
      `INSERT INTO user_two_factor (user_id, secret_sealed) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE
         SET secret_sealed = EXCLUDED.secret_sealed, last_step = NULL, created_at = now()
         WHERE user_two_factor.enabled_at IS NULL
       RETURNING user_id`,
      [userId, sealed],
    );
    return rows.length === 1;
  }

  /** Turns two-factor on with the step of the confirming code; when it was on already, null. */
  async enable(db: Queryable, userId: string, step: number): Promise<Date | null> {
    const [row] = await queryRows<{ enabled_at: Date }>(
      db,
      `UPDATE user_two_factor SET enabled_at = now(), last_step = $2
        WHERE user_id = $1 AND enabled_at IS NULL RETURNING enabled_at`,
      [userId, step],
    );
    return row?.enabled_at ?? null;
  }

  /** Takes a code's time step if it is later than every step taken before (a code works once). */
  async takeStep(db: Queryable, userId: string, step: number): Promise<boolean> {
    const rows = await queryRows<{ user_id: string }>(
      db,
      `UPDATE user_two_factor SET last_step = $2
        WHERE user_id = $1 AND enabled_at IS NOT NULL AND (last_step IS NULL OR last_step < $2)
        RETURNING user_id`,
      [userId, step],
    );
    return rows.length === 1;
  }

  /** Turns two-factor off: the secret and every recovery code go. Whether it was on. */
  async remove(db: Queryable, userId: string): Promise<boolean> {
    await db.query(`DELETE FROM user_recovery_codes WHERE user_id = $1`, [userId]);
    const rows = await queryRows<{ user_id: string }>(
      db,
      `DELETE FROM user_two_factor WHERE user_id = $1 AND enabled_at IS NOT NULL RETURNING user_id`,
      [userId],
    );
    return rows.length === 1;
  }

  /** The person's recovery codes become these (by hash); earlier ones stop working. */
  async replaceRecoveryCodes(db: Queryable, userId: string, hashes: string[]): Promise<void> {
    await db.query(`DELETE FROM user_recovery_codes WHERE user_id = $1`, [userId]);
    await db.query(
      `INSERT INTO user_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`,
      [userId, hashes],
    );
  }

  /** Uses an unused recovery code (by hash); how many are left after it, or undefined when none matched. */
  async useRecoveryCode(db: Queryable, userId: string, hash: string): Promise<number | undefined> {
    const used = await queryRows<{ user_id: string }>(
      db,
      `UPDATE user_recovery_codes SET used_at = now()
        WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
      [userId, hash],
    );
    if (used.length === 0) return undefined;
    return this.recoveryCodesLeft(db, userId);
  }

  async recoveryCodesLeft(db: Queryable, userId: string): Promise<number> {
    const [row] = await queryRows<{ left: number }>(
      db,
      `SELECT count(*)::int AS left FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
    return row?.left ?? 0;
  }
}
