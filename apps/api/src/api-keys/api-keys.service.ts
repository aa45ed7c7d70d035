import { DomainError } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { apiKeyStart, generateApiKey, hashApiKey } from '@interlock/api-keys';
import { writeAuditEntry } from '@interlock/audit';
import type { MemberCall } from '../auth/caller';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { NotificationBus } from '../notifications/notification-bus';
import { AUTH_CHANNEL } from './api-key-cache';
import { type ApiKeyRow, ApiKeysRepository } from './api-keys.repository';
import type { ApiKeyExpiry } from './api-key-expiry';
import type { ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_DAYS: Record<ApiKeyExpiry, number | null> = {
  never: null,
  '7d': 7,
  '30d': 30,
  '90d': 90,
};

function toResponse(row: ApiKeyRow): ApiKeyResponse {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

/**
 * Key management for members (SPEC §6): the rules; the table is `ApiKeysRepository`'s. Every
 * change writes its audit entry in its transaction.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: ApiKeysRepository,
    private readonly bus: NotificationBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(organisationId: string): Promise<ApiKeyResponse[]> {
    return (await this.keys.listLive(this.dataSource, organisationId)).map(toResponse);
  }

  async create(
    { organisationId, actor, ip }: MemberCall,
    name: string,
    expiry: ApiKeyExpiry,
  ): Promise<CreatedApiKeyResponse> {
    const key = generateApiKey(this.config.apiKeyPrefix);
    const id = randomUUID();
    const createdAt = new Date();
    const days = EXPIRY_DAYS[expiry];
    const expiresAt = days === null ? null : new Date(createdAt.getTime() + days * DAY_MS);
    const start = apiKeyStart(key, this.config.apiKeyPrefix);
    await this.dataSource.transaction(async (tx) => {
      await this.keys.insert(tx, organisationId, {
        id,
        name,
        start,
        keyHash: hashApiKey(key, this.config.apiKeyPepper),
        createdBy: actor.id,
        createdAt,
        expiresAt,
      });
      await writeAuditEntry(tx, {
        organisationId,
        action: 'api_key.created',
        actor,
        target: { type: 'api_key', id, name },
        metadata: { expiry, start, expiresAt: expiresAt?.toISOString() ?? null },
        ipAddress: ip,
      });
    });
    return {
      id,
      name,
      key,
      start,
      createdAt: createdAt.toISOString(),
      expiresAt: expiresAt?.toISOString() ?? null,
      lastUsedAt: null,
    };
  }

  async rename(
    { organisationId, actor, ip }: MemberCall,
    id: string,
    name: string,
  ): Promise<ApiKeyResponse> {
    const row = await this.dataSource.transaction(async (tx) => {
      const before = await this.keys.lockLive(tx, organisationId, id);
      if (before === undefined) throw DomainError.of('NOT_FOUND');
      const updated = await this.keys.rename(tx, organisationId, id, name);
      // Locked above: the key is there until the transaction ends.
      if (updated === undefined) throw DomainError.of('NOT_FOUND');
      if (before.name !== name) {
        await writeAuditEntry(tx, {
          organisationId,
          action: 'api_key.renamed',
          actor,
          target: { type: 'api_key', id, name },
          metadata: { previousName: before.name, name },
          ipAddress: ip,
        });
      }
      return updated;
    });
    await this.announce(id);
    // Keys carry their name into audit entries: no instance uses the old one afterwards.
    await this.bus.sync();
    return toResponse(row);
  }

  async revoke({ organisationId, actor, ip }: MemberCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const deleted = await this.keys.delete(tx, organisationId, id);
      if (deleted === undefined) throw DomainError.of('NOT_FOUND');
      await writeAuditEntry(tx, {
        organisationId,
        action: 'api_key.revoked',
        actor,
        target: { type: 'api_key', id, name: deleted.name },
        metadata: { start: deleted.start },
        ipAddress: ip,
      });
    });
    await this.announce(id);
    // Answer only once every instance has dropped the key (or stopped trusting its cache): no
    // instance accepts it after this answer (SPEC §2).
    await this.bus.sync();
  }

  /**
   * Tells every instance (this one included) that the key changed. The database triggers say
   * so too; this covers the embedded database, whose NOTIFY does not leave its connection.
   */
  private async announce(id: string): Promise<void> {
    await this.bus.publish(AUTH_CHANNEL, `key:${id}`);
  }
}
