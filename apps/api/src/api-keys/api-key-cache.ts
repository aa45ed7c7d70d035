import { hash } from 'node:crypto';
import type { Plan } from '@interlock/domain';
import type { NotificationBus } from '../notifications/notification-bus';
import type { ApiKeyPrincipal } from '../auth/principal';

export const AUTH_CHANNEL = 'interlock_auth';

/**
 * What the cache finds a presented `x-api-key` value by: its SHA-256 (hex). A key is 64 random
 * letters, so the digest cannot be turned back into it; equal digests are equal values.
 */
export function presentedKeyDigest(value: string): string {
  return hash('sha256', value, 'hex');
}

export interface CachedApiKey {
  readonly keyHash: string;
  readonly apiKeyId: string;
  readonly organisationId: string;
  readonly name: string;
  readonly expiresAt: Date | null;
  readonly plan: Plan;
  readonly cachedAt: number;
  /**
   * The key's principal, made once with the entry: every request the entry admits carries this
   * one (frozen) object, not a copy a request (issue 28).
   */
  readonly principal: ApiKeyPrincipal;
}

/**
 * Valid keys, cached in process for a few seconds so a busy agent does not cost a query per
 * request, found by the presented value's SHA-256 (`presentedKeyDigest`): a hit skips the key's
 * parse and its peppered HMAC as well as the query. The cache holds digests, never a key. It is
 * bounded (least recently used first out). Correctness never depends on the TTL: every change to
 * a key or an organisation is announced on the bus (by database triggers and by the service),
 * and each instance drops the entry at once; a change made through the API answers only once
 * every instance has (the bus's `sync`). While the bus is unhealthy (its listener down, or not
 * proved to receive within its lease) the cache is bypassed, and when the listener reconnects the
 * cache is emptied.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, CachedApiKey>();
  /** Bumped by every invalidation: a lookup that raced one must not be cached. */
  private generation = 0;
  /**
   * The digest last made the most recent (last in `entries`' order): a hit on it is already
   * where a move would put it, so it is not moved again. A busy agent's requests come with one
   * key, and a Map's delete and set on every one left a hole and a new entry a request (issue 28).
   */
  private newest: string | undefined = undefined;

  constructor(
    private readonly bus: NotificationBus,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {
    bus.subscribe(AUTH_CHANNEL, (payload) => this.invalidate(payload));
    bus.onResync(() => {
      this.generation++;
      this.entries.clear();
    });
  }

  /** The key presented as `digest` (`presentedKeyDigest`), if cached and fresh. */
  get(digest: string, now = Date.now()): CachedApiKey | undefined {
    if (!this.bus.healthy) return undefined;
    const entry = this.entries.get(digest);
    if (entry === undefined) return undefined;
    if (now - entry.cachedAt > this.ttlMs) {
      this.entries.delete(digest);
      return undefined;
    }
    if (digest !== this.newest) {
      // Used now: last out (a Map keeps insertion order).
      this.entries.delete(digest);
      this.entries.set(digest, entry);
      this.newest = digest;
    }
    return entry;
  }

  /** The generation to pass to `set` for a lookup that starts now. */
  currentGeneration(): number {
    return this.generation;
  }

  /**
   * Caches the key presented as `digest`, looked up from `generation` on, unless an invalidation
   * happened since.
   */
  set(digest: string, entry: CachedApiKey, generation: number): void {
    if (!this.bus.healthy || generation !== this.generation) return;
    this.entries.delete(digest);
    if (this.entries.size >= this.maxEntries) {
      // Evict the least recently used (the first in the Map's order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(digest, entry);
    this.newest = digest;
  }

  private invalidate(message: string): void {
    this.generation++;
    const [kind, id] = message.split(':', 2);
    for (const [hash, entry] of this.entries) {
      if (
        (kind === 'key' && entry.apiKeyId === id) ||
        (kind === 'org' && entry.organisationId === id)
      ) {
        this.entries.delete(hash);
      }
    }
  }
}
