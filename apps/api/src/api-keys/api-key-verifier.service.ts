import { DomainError } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { apiKeyFormRefusal, apiKeyHashesEqual, hashApiKey, parseApiKey } from '@interlock/api-keys';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { JobRunner } from '../jobs/job-runner';
import { LOGGER } from '../logging/logger.module';
import { DEFAULT_BUS_TIMING, NotificationBus } from '../notifications/notification-bus';
import type { ApiKeyPrincipal } from '../auth/principal';
import { ApiKeyCache, CachedApiKey, presentedKeyDigest } from './api-key-cache';
import { ApiKeysRepository } from './api-keys.repository';
import { LastUsedRecorder } from './last-used.recorder';

// Refusals are the hot path under a flood of bad keys: built once, thrown as often as needed
// (they carry no per-request state; the filter adds the request id).
const INVALID = DomainError.of('INVALID_API_KEY');
const EXPIRED = DomainError.of('API_KEY_EXPIRED');

/** How long a key's lookup under way may be shared (ApiKeyVerifier.lookup): half the bus's lease. */
const SHARE_LOOKUP_MS = DEFAULT_BUS_TIMING.leaseMs / 2;

/**
 * Turns an `x-api-key` value into the key's principal, in the SPEC §4 order: well-formed and
 * known (else 401 Invalid API key.), then not expired (else 401 API Key has expired). A
 * malformed or checksum-failing key is refused without touching the database.
 */
@Injectable()
export class ApiKeyVerifier {
  readonly cache: ApiKeyCache;
  private readonly lastUsed: LastUsedRecorder;
  /**
   * Lookups under way, by the presented value's digest, with the cache generation each began in:
   * requests presenting the same value meanwhile share it (below).
   */
  private readonly lookups = new Map<
    string,
    { generation: number; startedAt: number; key: Promise<CachedApiKey> }
  >();

  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: ApiKeysRepository,
    bus: NotificationBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) logger: Logger,
    jobs: JobRunner,
  ) {
    this.cache = new ApiKeyCache(bus);
    // Written in the background by the job runner, which drains the last uses on shutdown.
    this.lastUsed = new LastUsedRecorder(
      (organisationId, apiKeyId, usedAt) =>
        keys.recordLastUsed(dataSource, organisationId, apiKeyId, usedAt),
      logger,
    );
    jobs.register(this.lastUsed);
  }

  /**
   * The principal of `value`, or its refusal. Synchronous when nothing has to be read — a value
   * verified in the last seconds (found by its digest: no parse, no HMAC, no query), and a value
   * that does not parse (malformed or checksum-failing, thrown at once) — so the guard admits or
   * refuses without a promise (issue 28: a malformed key's 401 costs no more than an answer); a
   * promise when the key must be read. A value its form refuses (a wrong length, prefix or
   * letter, a mistyped letter the Luhn letter catches) is refused first, before its digest: one
   * pass over its letters, where the digest is a SHA-256 (no cached key has such a form).
   */
  verify(value: string): ApiKeyPrincipal | Promise<ApiKeyPrincipal> {
    if (apiKeyFormRefusal(value, this.config.apiKeyPrefix) !== undefined) throw INVALID;
    const now = Date.now();
    const digest = presentedKeyDigest(value);
    const cached = this.cache.get(digest, now);
    if (cached !== undefined) return this.principalOf(cached, now);
    if (!parseApiKey(value, this.config.apiKeyPrefix).ok) throw INVALID;
    return this.lookup(value, digest, now).then((key) => this.principalOf(key, now));
  }

  /** A known key's principal at `now`, or API_KEY_EXPIRED; its use recorded. */
  private principalOf(key: CachedApiKey, now: number): ApiKeyPrincipal {
    if (key.expiresAt !== null && key.expiresAt.getTime() <= now) throw EXPIRED;
    this.lastUsed.record(key.organisationId, key.apiKeyId, now);
    return key.principal;
  }

  /**
   * A miss, shared by every request presenting the same value until it is answered: agents of one
   * key come together (a herd of held waits ending at once, issue 37 §6) and, when the entry has
   * lapsed, each read the key — 2,000 statements for the pool's 10 connections, and 650 × 503 in
   * the waiters bench. Only a lookup begun in the cache's current generation (one begun before a
   * key's change was announced may have read the old row) and less than SHARE_LOOKUP_MS ago is
   * shared: a change this instance did not hear of (its bus unhealthy) is answered only a lease
   * (3 s) after its commit (`sync`), so a request sent after that answer never joins a lookup
   * begun before the commit.
   */
  private lookup(value: string, digest: string, now: number): Promise<CachedApiKey> {
    const generation = this.cache.currentGeneration();
    const running = this.lookups.get(digest);
    if (
      running !== undefined &&
      running.generation === generation &&
      now - running.startedAt < SHARE_LOOKUP_MS
    )
      return running.key;
    const key = this.verifyUncached(value, digest, now).finally(() => {
      if (this.lookups.get(digest)?.key === key) this.lookups.delete(digest);
    });
    this.lookups.set(digest, { generation, startedAt: now, key });
    return key;
  }

  /** A value that parsed (`verify`), read by its peppered hash. */
  private async verifyUncached(value: string, digest: string, now: number): Promise<CachedApiKey> {
    const keyHash = hashApiKey(value, this.config.apiKeyPepper);
    const key = await this.load(keyHash, digest, now);
    if (key === undefined) throw INVALID;
    return key;
  }

  private async load(
    keyHash: string,
    digest: string,
    now: number,
  ): Promise<CachedApiKey | undefined> {
    const generation = this.cache.currentGeneration();
    // One statement, on a miss only (the repository's lookup by hash, with the plan joined in).
    const row = await this.keys.findByHash(this.dataSource, keyHash);
    // The row read by this hash is compared in constant time.
    if (row === undefined || !apiKeyHashesEqual(row.key_hash, keyHash)) return undefined;
    const entry: CachedApiKey = {
      keyHash: row.key_hash,
      apiKeyId: row.id,
      organisationId: row.organisation_id,
      name: row.name,
      expiresAt: row.expires_at,
      plan: row.plan,
      cachedAt: now,
      principal: Object.freeze({
        kind: 'api_key',
        organisationId: row.organisation_id,
        plan: row.plan,
        apiKeyId: row.id,
        apiKeyName: row.name,
      }),
    };
    this.cache.set(digest, entry, generation);
    return entry;
  }
}
