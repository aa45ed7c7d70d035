import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import type { UserPrincipal } from '../auth/principal';
import type { UserCall } from '../auth/caller';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { auditAccountEvent } from './account-audit';
import type { AccountSignInSessionsResponse } from './dto/sign-in-sessions.response';

/**
 * Settings → Security's list of where the person is signed in (SPEC §8f): each sign-in session
 * with its latest use, address and browser; ending one, or all but this one. Ending sessions is
 * audited (`member.sessions_ended`) in every organisation the person belongs to.
 */
@Injectable()
export class AccountSessionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signIns: SignInSessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(user: UserPrincipal): Promise<AccountSignInSessionsResponse> {
    const idleMs = this.config.accounts.sessionIdleTimeoutMs;
    const rows = await this.signIns.listOfUser(user.userId);
    return {
      sessions: rows.map((row) => ({
        id: row.id,
        createdAt: row.created_at.toISOString(),
        lastUsedAt: row.last_used_at.toISOString(),
        endsAt: new Date(
          Math.min(row.expires_at.getTime(), row.last_used_at.getTime() + idleMs),
        ).toISOString(),
        ipAddress: row.ip_address,
        userAgent: row.user_agent,
        current: row.id === user.signInSessionId,
      })),
    };
  }

  /** Ends one of the person's sessions (this one too, which signs them out); 404 when it is none of theirs. */
  async revoke({ user, ip }: UserCall, signInSessionId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      if (!(await this.signIns.revokeOfUser(tx, user.userId, signInSessionId)))
        throw DomainError.of('NOT_FOUND');
      await this.audit(tx, user, { scope: 'one', count: 1 }, ip);
    });
  }

  /** Ends every session of the person but this one; how many ended. */
  async revokeOthers({ user, ip }: UserCall): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const count = await this.signIns.revokeAllOfUser(tx, user.userId, user.signInSessionId);
      if (count > 0) await this.audit(tx, user, { scope: 'others', count }, ip);
      return count;
    });
  }

  private async audit(
    tx: Queryable,
    user: UserPrincipal,
    metadata: { scope: 'one' | 'others'; count: number },
    ip: string | null,
  ): Promise<void> {
    await auditAccountEvent(
      tx,
      { id: user.userId, name: user.userName },
      { action: 'member.sessions_ended', metadata },
      ip,
    );
  }
}
