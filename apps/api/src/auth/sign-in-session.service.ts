import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isPermission, Permission, Plan } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { newSecretToken, secretTokenHash } from '../database/hashed-token.util';
import type { Queryable } from '../database/query-rows.util';
import type { MemberPrincipal, UserPrincipal } from './principal';
import {
  SignedInUserRow,
  SignInSessionRow,
  SignInSessionsRepository,
} from './sign-in-sessions.repository';

const SESSION_DAYS = 30;
/** A session's last use is recorded at most this often (and whenever its address or browser changes). */
const TOUCH_EVERY_MS = 60_000;

/** Where a request comes from, recorded on the session it uses. */
export interface SignInClient {
  readonly ip: string | null;
  readonly userAgent: string | null;
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
  | {
      /**
       * `sso_only`: a session made by single sign-on, asked to act for another organisation;
       * `sso_required`: a password session, for an organisation that requires single sign-on;
       * `two_factor_required`: a password session of a person without two-factor sign-in, for
       * an organisation that requires it.
       */
      readonly outcome:
        | 'not_member'
        | 'no_organisation'
        | 'several'
        | 'sso_only'
        | 'sso_required'
        | 'two_factor_required';
      readonly user: UserPrincipal;
    };

/**
 * People's sign-in sessions (the `session` cookie): a random token in an HttpOnly cookie, its
 * SHA-256 in `sign_in_sessions`. A session belongs to the user; the organisation a request acts
 * for is looked up with it, among the user's current memberships, on every request — so a
 * sign-out, a removal or a role change holds at the next request on every instance. The table
 * is `SignInSessionsRepository`'s; the cookie itself is the HTTP layer's (`SessionCookies`).
 * A session ends 30 days after sign-in, or once unused for `SESSION_IDLE_TIMEOUT` (7 days by
 * default); each request's use is recorded (at most once a minute, with address and browser).
 */
@Injectable()
export class SignInSessionService {
  private readonly idleMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SignInSessionsRepository,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'accounts'>,
  ) {
    this.idleMs = config.accounts.sessionIdleTimeoutMs;
  }

  /**
   * Creates a sign-in session for a user (inside the caller's transaction) and returns its cookie
   * token. `ssoOrganisationId`: made by that organisation's single sign-on, the session acts for
   * that organisation alone (SPEC §8f) — its provider vouched for nothing else.
   */
  async create(
    tx: Queryable,
    userId: string,
    ssoOrganisationId: string | null = null,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = newSecretToken();
    const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
    await this.sessions.insert(tx, {
      id: randomUUID(),
      userId,
      tokenHash: secretTokenHash(token),
      expiresAt,
      ssoOrganisationId,
    });
    return { token, expiresAt };
  }

  /** The signed-in user, for routes that act for no organisation. */
  async authenticateUser(token: string, client?: SignInClient): Promise<UserPrincipal | undefined> {
    const row = await this.sessions.findUser(this.dataSource, secretTokenHash(token), this.idleMs);
    if (row === undefined) return undefined;
    await this.recordUse(row, client);
    return toUser(row);
  }

  /**
   * The signed-in user acting for `organisationId` — or, when none is given, for their one
   * current membership. One query: the session, the user and the matching current
   * memberships (at most two are read: two already mean "choose one").
   */
  async authenticateMember(
    token: string,
    organisationId: string | undefined,
    client?: SignInClient,
  ): Promise<MemberSignIn | undefined> {
    const rows = await this.sessions.findMember(
      this.dataSource,
      secretTokenHash(token),
      organisationId ?? null,
      this.idleMs,
    );
    const [row] = rows;
    if (row === undefined) return undefined;
    await this.recordUse(row, client);
    if (row.organisation_id === null) {
      const user = toUser(row);
      if (organisationId === undefined) return { outcome: 'no_organisation', user };
      // Whether or not they are a member there: the answer says nothing of other memberships.
      if (user.ssoOrganisationId !== null && user.ssoOrganisationId !== organisationId)
        return { outcome: 'sso_only', user };
      return { outcome: 'not_member', user };
    }
    if (rows.length > 1) return { outcome: 'several', user: toUser(row) };
    if (row.password_refused) return { outcome: 'sso_required', user: toUser(row) };
    if (row.two_factor_refused) return { outcome: 'two_factor_required', user: toUser(row) };
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
        signedInWith: row.sso_organisation_id === null ? 'password' : 'single_sign_on',
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

  /**
   * `stillMember` for many streams at once, in one query: for each check, the member's
   * permissions as they are now, or `undefined` once the sign-in or the membership is gone.
   */
  async stillMembers(
    checks: readonly { token: string; organisationId: string }[],
  ): Promise<(ReadonlySet<Permission> | undefined)[]> {
    if (checks.length === 0) return [];
    const hashed = checks.map((c) => ({
      tokenHash: secretTokenHash(c.token),
      organisationId: c.organisationId,
    }));
    const unique = new Map<string, { tokenHash: string; organisationId: string }>();
    for (const pair of hashed) unique.set(`${pair.tokenHash} ${pair.organisationId}`, pair);
    // A stream's heartbeat checks the session but is no use of it: an idle session's streams end.
    const rows = await this.sessions.findCurrentMembers(
      this.dataSource,
      [...unique.values()],
      this.idleMs,
    );
    const found = new Map<string, ReadonlySet<Permission>>();
    for (const row of rows) {
      found.set(
        `${row.token_hash} ${row.organisation_id}`,
        new Set((row.permissions ?? []).filter(isPermission) as Permission[]),
      );
    }
    return hashed.map((pair) => found.get(`${pair.tokenHash} ${pair.organisationId}`));
  }

  /**
   * Ends every sign-in session of a user (inside the caller's transaction), but the one named by
   * `keep` (the request's own, for a password change); how many live ones ended.
   */
  revokeAllOfUser(tx: Queryable, userId: string, keep: string | null): Promise<number> {
    return this.sessions.deleteAllOfUser(tx, userId, keep);
  }

  /** A person's live sessions, the most recently used first. */
  listOfUser(userId: string): Promise<SignInSessionRow[]> {
    return this.sessions.listOfUser(this.dataSource, userId, this.idleMs);
  }

  /** Ends one of a person's live sessions (inside the caller's transaction); false when it is none of theirs. */
  revokeOfUser(tx: Queryable, userId: string, signInSessionId: string): Promise<boolean> {
    return this.sessions.deleteOfUser(tx, userId, signInSessionId, this.idleMs);
  }

  /** Records a request's use of a session: at most once a minute, and whenever the address or browser changes. */
  private async recordUse(row: SignedInUserRow, client: SignInClient | undefined): Promise<void> {
    if (client === undefined) return;
    if (
      Date.now() - row.last_used_at.getTime() < TOUCH_EVERY_MS &&
      row.ip_address === client.ip &&
      row.user_agent === client.userAgent
    )
      return;
    await this.sessions.touch(this.dataSource, row.sign_in_session_id, client.ip, client.userAgent);
  }

  async revoke(signInSessionId: string): Promise<void> {
    await this.sessions.delete(this.dataSource, signInSessionId);
  }
}

function toUser(row: SignedInUserRow): UserPrincipal {
  return {
    kind: 'user',
    userId: row.user_id,
    userName: row.name,
    email: row.email,
    signInSessionId: row.sign_in_session_id,
    ssoOrganisationId: row.sso_organisation_id,
  };
}
