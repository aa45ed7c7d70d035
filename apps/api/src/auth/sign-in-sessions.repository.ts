import { Injectable } from '@nestjs/common';
import type { Plan } from '@interlock/domain';
import { type Queryable, queryRows } from '../database/query-rows.util';
import {
  CURRENT_MEMBERSHIP_COLUMNS,
  leftJoinCurrentMemberships,
} from '../members/memberships.repository';
import { leftJoinSsoConnection } from '../sso/sso.repository';
import { joinUsers } from '../users/users.repository';
import { twoFactorOn } from '../users/two-factor.repository';

/** A live sign-in session with its user, and its latest use (to decide whether to record this one). */
export interface SignedInUserRow {
  sign_in_session_id: string;
  user_id: string;
  name: string;
  email: string;
  last_used_at: Date;
  ip_address: string | null;
  user_agent: string | null;
  /** Made by this organisation's single sign-on (it acts for it only), or null. */
  sso_organisation_id: string | null;
}

/** One of a person's live sign-in sessions, for their list. */
export interface SignInSessionRow {
  id: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  ip_address: string | null;
  user_agent: string | null;
}

/** A session is live while unexpired and used within the idle timeout (`$n`, milliseconds). */
const live = (alias: string, idleParam: string) =>
  `${alias}.expires_at > now() AND ${alias}.last_used_at > now() - ${idleParam} * interval '1 millisecond'`;
const USE_COLUMNS = 's.last_used_at, s.ip_address, s.user_agent, s.sso_organisation_id';
/** Over `s` (the session), `r` (the membership's role) and `sc` (its organisation's single sign-on). */
const PASSWORD_REFUSED = `(s.sso_organisation_id IS NULL AND sc.require_sso IS TRUE AND r.built_in IS DISTINCT FROM 'owner')`;
/**
 * Over `s`, `u` (its user) and `o` (the membership's organisation): a password session of a
 * person without two-factor sign-in, for an organisation that requires it (SPEC §8f). A single
 * sign-on session is not refused: the provider's own policy applies.
 */
const TWO_FACTOR_REFUSED = `(s.sso_organisation_id IS NULL AND o.require_two_factor IS TRUE AND NOT ${twoFactorOn('u.id')})`;

/** …and one of the user's current memberships (all null when none matched). */
export interface SignedInMemberRow extends SignedInUserRow {
  organisation_id: string | null;
  role_id: string | null;
  role_name: string | null;
  permissions: string[] | null;
  plan: Plan | null;
  /**
   * A password session (no `sso_organisation_id`) naming a membership of an organisation that
   * requires single sign-on, where the person is no Owner: it may not act for it (SPEC §8f).
   */
  password_refused: boolean;
  /**
   * A password session of a person without two-factor sign-in, naming a membership of an
   * organisation that requires it: it may not act for it until they turn it on (SPEC §8f).
   */
  two_factor_refused: boolean;
}

/** A (token hash, organisation) pair that is still a signed-in current member, with the role's permissions. */
export interface StillMemberRow {
  token_hash: string;
  organisation_id: string;
  permissions: string[] | null;
}

/**
 * The `sign_in_sessions` table's one owner. A session belongs to a user, not an organisation
 * (a reference table: ARCHITECTURE.md), so its methods take no organisation. The lookups by
 * token run on every cookie request and stay one statement each: they compose the users' and
 * memberships' owners' join fragments instead of asking those owners in further round trips.
 */
@Injectable()
export class SignInSessionsRepository {
  async insert(
    db: Queryable,
    session: {
      id: string;
      userId: string;
      tokenHash: string;
      expiresAt: Date;
      ssoOrganisationId: string | null;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO sign_in_sessions (id, user_id, token_hash, expires_at, sso_organisation_id)
       VALUES ($1, $2, $3, $4, $5)`,
      [session.id, session.userId, session.tokenHash, session.expiresAt, session.ssoOrganisationId],
    );
  }

  /** The live session a token's hash names, with its user. */
  async findUser(
    db: Queryable,
    tokenHash: string,
    idleMs: number,
  ): Promise<SignedInUserRow | undefined> {
    const [row] = await queryRows<SignedInUserRow>(
      db,
      `SELECT s.id AS sign_in_session_id, u.id AS user_id, u.name, u.email, ${USE_COLUMNS}
         FROM sign_in_sessions s ${joinUsers('u', 's.user_id')}
        WHERE s.token_hash = $1 AND ${live('s', '$2')}`,
      [tokenHash, idleMs],
    );
    return row;
  }

  /** Records a use: when, from where, with which browser. */
  async touch(
    db: Queryable,
    signInSessionId: string,
    ipAddress: string | null,
    userAgent: string | null,
  ): Promise<void> {
    await db.query(
      `UPDATE sign_in_sessions SET last_used_at = now(), ip_address = $2, user_agent = $3 WHERE id = $1`,
      [signInSessionId, ipAddress, userAgent],
    );
  }

  /** A person's live sessions, the most recently used first. */
  listOfUser(db: Queryable, userId: string, idleMs: number): Promise<SignInSessionRow[]> {
    return queryRows<SignInSessionRow>(
      db,
      `SELECT s.id, s.created_at, s.last_used_at, s.expires_at, s.ip_address, s.user_agent
         FROM sign_in_sessions s
        WHERE s.user_id = $1 AND ${live('s', '$2')}
        ORDER BY s.last_used_at DESC, s.id`,
      [userId, idleMs],
    );
  }

  /** Ends one of a person's sessions; whether it was theirs and live. */
  async deleteOfUser(
    db: Queryable,
    userId: string,
    signInSessionId: string,
    idleMs: number,
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      db,
      `DELETE FROM sign_in_sessions s WHERE s.id = $1 AND s.user_id = $2 AND ${live('s', '$3')} RETURNING s.id`,
      [signInSessionId, userId, idleMs],
    );
    return rows.length === 1;
  }

  /**
   * The unexpired session a token's hash names, its user, and the user's current memberships —
   * of `organisationId` only, when given — with role and plan: at most two rows (two already
   * mean "choose one"), ordered by organisation; one row with null membership columns when
   * none matched; none when the session is unknown or expired.
   */
  findMember(
    db: Queryable,
    tokenHash: string,
    organisationId: string | null,
    idleMs: number,
  ): Promise<SignedInMemberRow[]> {
    return queryRows<SignedInMemberRow>(
      db,
      `SELECT s.id AS sign_in_session_id, u.id AS user_id, u.name, u.email, ${USE_COLUMNS}, ${CURRENT_MEMBERSHIP_COLUMNS},
              ${PASSWORD_REFUSED} AS password_refused,
              coalesce(${TWO_FACTOR_REFUSED}, false) AS two_factor_refused
         FROM sign_in_sessions s
         ${joinUsers('u', 's.user_id')}
         ${leftJoinCurrentMemberships('u.id', '$2', 's.sso_organisation_id')}
         ${leftJoinSsoConnection('sc', 'm.organisation_id')}
        WHERE s.token_hash = $1 AND ${live('s', '$3')}
        ORDER BY m.organisation_id
        LIMIT 2`,
      [tokenHash, organisationId, idleMs],
    );
  }

  /**
   * For the heartbeat of every open stream at once: of each (token hash, organisation) pair,
   * those whose session is unexpired and whose user is a current member of that organisation,
   * with the role's permissions — one statement however many pairs. A pair absent from the
   * answer is gone (signed out, expired, removed).
   */
  findCurrentMembers(
    db: Queryable,
    pairs: readonly { tokenHash: string; organisationId: string }[],
    idleMs: number,
  ): Promise<StillMemberRow[]> {
    return queryRows<StillMemberRow>(
      db,
      `SELECT q.token_hash, m.organisation_id, r.permissions
         FROM unnest($1::text[], $2::uuid[]) AS q(token_hash, organisation_id)
         JOIN sign_in_sessions s ON s.token_hash = q.token_hash AND ${live('s', '$3')}
         ${joinUsers('u', 's.user_id')}
         ${leftJoinCurrentMemberships('u.id', 'q.organisation_id', 's.sso_organisation_id')}
         ${leftJoinSsoConnection('sc', 'm.organisation_id')}
        WHERE m.organisation_id IS NOT NULL AND NOT ${PASSWORD_REFUSED}
          AND NOT ${TWO_FACTOR_REFUSED}`,
      [pairs.map((p) => p.tokenHash), pairs.map((p) => p.organisationId), idleMs],
    );
  }

  /** Ends every session of a user but `exceptId` (none spared when null); how many ended. */
  async deleteAllOfUser(db: Queryable, userId: string, exceptId: string | null): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      db,
      `DELETE FROM sign_in_sessions
        WHERE user_id = $1 AND ($2::uuid IS NULL OR id <> $2) AND expires_at > now() RETURNING id`,
      [userId, exceptId],
    );
    await db.query(`DELETE FROM sign_in_sessions WHERE user_id = $1 AND expires_at <= now()`, [
      userId,
    ]);
    return rows.length;
  }

  async delete(db: Queryable, signInSessionId: string): Promise<void> {
    await db.query(`DELETE FROM sign_in_sessions WHERE id = $1`, [signInSessionId]);
  }
}
