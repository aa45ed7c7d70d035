import type { Plan } from '@interlock/domain';
import type { NotificationBus } from '../notifications/notification-bus';

export const AUTH_CHANNEL = 'interlock_auth';

export interface CachedApiKey {
  readonly keyHash: string;
  readonly apiKeyId: string;
  readonly organisationId: string;
  readonly name: string;
  readonly expiresAt: Date | null;
  readonly plan: Plan;
  readonly cachedAt: number;
}

/**
 * Valid keys, cached in process for a few seconds so a busy agent does not cost a query per
 * request. Correctness never depends on the TTL: every change to a key or an organisation is
 * announced on the bus (by database triggers and by the service), and each instance drops the
 * entry at once. While the bus is unhealthy (notifications may be missed) the cache is bypassed,
 * and when it recovers the cache is emptied.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, CachedApiKey>();
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Bumped by every invalidation: a lookup that raced one must not be cached. */
  private generation = 0;

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

  get(keyHash: string, now = Date.now()): CachedApiKey | undefined {
    if (!this.bus.healthy) return undefined;
    const entry = this.entries.get(keyHash);
    if (entry === undefined) return undefined;
    if (now - entry.cachedAt > this.ttlMs) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry;
  }

  /** The generation to pass to `set` for a lookup that starts now. */
  currentGeneration(): number {
    return this.generation;
  }

  /** Caches a lookup that began at `generation`, unless an invalidation happened since. */
  set(entry: CachedApiKey, generation: number): void {
    if (!this.bus.healthy || generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      // Evict the oldest insertion (Map keeps insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(entry.keyHash, entry);
  }

  /**
   * Resolves once this instance has seen the invalidation of `message` (e.g. `key:<id>`), or
   * after `timeoutMs`. A revoke waits for it so that, by the time it answers, the notification
   * has reached the listeners — and every instance drops the key before it can serve it again.
   */
  awaitInvalidation(message: string, timeoutMs: number): { done: Promise<void> } {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const set = this.waiters.get(message) ?? new Set();
    this.waiters.set(message, set);
    const finish = () => {
      clearTimeout(timer);
      set.delete(finish);
      if (set.size === 0) this.waiters.delete(message);
      resolve();
    };
    const timer = setTimeout(finish, timeoutMs);
    timer.unref();
    set.add(finish);
    return { done };
  }

  private invalidate(message: string): void {
    this.generation++;
    const [kind, id] = message.split(':', 2);
    for (const [hash, entry] of this.entries) {
      if ((kind === 'key' && entry.apiKeyId === id) || (kind === 'org' && entry.organisationId === id)) {
        this.entries.delete(hash);
      }
    }
    for (const finish of [...(this.waiters.get(message) ?? [])]) finish();
  }
}
