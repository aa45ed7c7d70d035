import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import type { UserCall } from '../auth/caller';
import { auditAccountEvent } from './account-audit';
import { findUser, renameUser } from './users.repository';

/** The person's own name (SPEC §8f, Settings → Profile); their address is EmailChangeService's. */
@Injectable()
export class ProfileService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Renames the signed-in person (trimmed), audited `member.renamed` in each of their
   * organisations; the same name again changes and writes nothing.
   */
  async rename({ user: signedIn, ip }: UserCall, name: string): Promise<void> {
    const to = name.trim();
    await this.dataSource.transaction(async (tx) => {
      const from = await renameUser(tx, signedIn.userId, to);
      if (from === undefined) {
        if ((await findUser(tx, signedIn.userId)) === undefined)
          throw DomainError.of('SIGN_IN_REQUIRED');
        return;
      }
      await auditAccountEvent(
        tx,
        { id: signedIn.userId, name: to },
        { action: 'member.renamed', metadata: { from, to } },
        ip,
      );
    });
  }
}
