import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { isPermission, Permission, Plan } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { MemberPrincipal, UserPrincipal } from './principal';
import { SESSION_COOKIE } from './session-cookie.util';

const SESSION_DAYS = 30;

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * What a sign-in cookie stands for on a route that acts for an organisation:
 * - `undefined`: nobody (unknown, expired or signed-out token);
 * - `member`: the person acting for the organisation asked for (or their only one);
 * - `not_member`: the person is no current member of the organisation asked for;
 * - `no_organisation`: none asked for, and the person is a member of none;
 * - `several`: none asked for, and the person is a member of several.
 */
export type MemberSignIn =
  | { readonly outcome: 'member'; readonly member: MemberPrincipal }
  | { readonly outcome: 'not_member' | 'no_organisation' | 'several'; readonly user: UserPrincipal };

interface SignInRow {
  sign_in_session_id: string;
  user_id: string;
  name: string;
  email: string;
  organisation_id: string | null;
  role_id: string | null;
  role_name: string | null;
  permissions: string[] | null;
  plan: Plan | null;
}

/**
 * People's sign-in sessions (the `session` cookie): a random token in an HttpOnly cookie, its
 * SHA-256 in `sign_in_sessions`. A session belongs to the user; the organisation a request acts
 * for is looked up with it, among the user's current memberships, on every request — so a
 * sign-out, a removal or a role change holds at the next request on every instance.
 */
@Injectable()
export class SignInSessionService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates a sign-in session for a user (inside the caller's transaction) and returns its cookie token. */
  async create(manager: EntityManager, userId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
    await manager.query(`INSERT INTO sign_in_sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)`, [
      randomUUID(),
      userId,
      tokenHash(token),
      expiresAt,
    ]);
    return { token, expiresAt };
  }

  /** The signed-in user, for routes that act for no organisation. */
  async authenticateUser(token: string): Promise<UserPrincipal | undefined> {
    const [row]: SignInRow[] = await this.dataSource.query(
      `SELECT s.id AS sign_in_session_id, u.id AS user_id, u.name, u.email
         FROM sign_in_sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash(token)],
    );
    return row === undefined ? undefined : toUser(row);
  }

  /**
   * The signed-in user acting for `organisationId` — or, when none is given, for their one
   * current membership. One query: the session, the user and the matching current
   * memberships (at most two are read: two already mean "choose one").
   */
  async authenticateMember(token: string, organisationId: string | undefined): Promise<MemberSignIn | undefined> {
    const rows: SignInRow[] = await this.dataSource.query(
      `SELECT s.id AS sign_in_session_id, u.id AS user_id, u.name, u.email,
              m.organisation_id, m.role_id, r.name AS role_name, r.permissions, o.plan
         FROM sign_in_sessions s
         JOIN users u ON u.id = s.user_id
         LEFT JOIN (memberships m
                    JOIN roles r ON r.organisation_id = m.organisation_id AND r.id = m.role_id
                    JOIN organisations o ON o.id = m.organisation_id)
                ON m.user_id = u.id AND m.left_at IS NULL AND ($2::uuid IS NULL OR m.organisation_id = $2::uuid)
        WHERE s.token_hash = $1 AND s.expires_at > now()
        ORDER BY m.organisation_id
        LIMIT 2`,
      [tokenHash(token), organisationId ?? null],
    );
    const [row] = rows;
    if (row === undefined) return undefined;
    if (row.organisation_id === null) {
      return { outcome: organisationId === undefined ? 'no_organisation' : 'not_member', user: toUser(row) };
    }
    if (rows.length > 1) return { outcome: 'several', user: toUser(row) };
    return {
      outcome: 'member',
      member: {
        kind: 'member',
        organisationId: row.organisation_id,
        plan: row.plan as Plan,
        memberId: row.user_id,
        memberName: row.name,
        email: row.email,
        roleId: row.role_id as string,
        roleName: row.role_name as string,
        signInSessionId: row.sign_in_session_id,
        permissions: new Set((row.permissions ?? []).filter(isPermission) as Permission[]),
      },
    };
  }

  /**
   * The member a long-lived stream was opened for, still signed in and still a current member
   * of that organisation (streams re-check at every heartbeat); `undefined` otherwise.
   */
  async stillMember(token: string, organisationId: string): Promise<MemberPrincipal | undefined> {
    const signIn = await this.authenticateMember(token, organisationId);
    return signIn?.outcome === 'member' ? signIn.member : undefined;
  }

  async revoke(signInSessionId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM sign_in_sessions WHERE id = $1`, [signInSessionId]);
  }

  setCookie(res: Response, token: string, expiresAt: Date): void {
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.nodeEnv === 'production',
      path: '/',
      expires: expiresAt,
    });
  }

  clearCookie(res: Response): void {
    res.clearCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.nodeEnv === 'production',
      path: '/',
    });
  }
}

function toUser(row: SignInRow): UserPrincipal {
  return { kind: 'user', userId: row.user_id, userName: row.name, email: row.email, signInSessionId: row.sign_in_session_id };
}
