import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { isPermission, Permission, Plan } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { MemberPrincipal } from './principal';
import { SESSION_COOKIE } from './session-cookie.util';

const SESSION_DAYS = 30;

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Signed-in sessions: a random token in an HttpOnly cookie, its SHA-256 in the database. */
@Injectable()
export class SessionService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates a session (inside the caller's transaction) and returns its cookie token. */
  async create(manager: EntityManager, organisationId: string, memberId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
    await manager.query(
      `INSERT INTO member_sessions (organisation_id, id, member_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [organisationId, randomUUID(), memberId, tokenHash(token), expiresAt],
    );
    return { token, expiresAt };
  }

  async authenticate(token: string): Promise<MemberPrincipal | undefined> {
    const rows: {
      organisation_id: string;
      id: string;
      member_id: string;
      name: string;
      permissions: string[];
      plan: Plan;
    }[] = await this.dataSource.query(
      `SELECT s.organisation_id, s.id, s.member_id, m.name, r.permissions, o.plan
         FROM member_sessions s
         JOIN members m ON m.organisation_id = s.organisation_id AND m.id = s.member_id
         JOIN roles r ON r.organisation_id = m.organisation_id AND r.id = m.role_id
         JOIN organisations o ON o.id = s.organisation_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash(token)],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      kind: 'member',
      organisationId: row.organisation_id,
      plan: row.plan,
      memberId: row.member_id,
      memberName: row.name,
      sessionId: row.id,
      permissions: new Set(row.permissions.filter(isPermission) as Permission[]),
    };
  }

  async revoke(organisationId: string, sessionId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM member_sessions WHERE organisation_id = $1 AND id = $2`, [
      organisationId,
      sessionId,
    ]);
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
