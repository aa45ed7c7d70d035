import type { NotificationBus } from './notification-bus';

export interface OrganisationCacheOptions<V, C> {
  /** The bus channel on which a change to what is kept is announced. */
  readonly channel: string;
  /** The organisation an announcement on `channel` names (undefined: none whose entry is kept). */
  readonly organisationOf: (payload: string) => string | undefined;
  /** What `changed` announces for an organisation (`organisationOf`'s inverse). */
  readonly announcement: (organisationId: string) => string;
  /** Reads the organisation's value (through `context`: a transaction, say). Undefined is not kept. */
  readonly load: (organisationId: string, context: C) => Promise<V>;
  /** Past this an entry is not used as it is (a bound only: correctness rests on the announcements). */
  readonly ttlMs: number;
  /** Past this many organisations, the one kept longest is dropped first. */
  readonly maxEntries: number;
  /**
   * A cheap check that a kept value is still the database's. Without it, an entry that cannot be
   * trusted as it is (the bus not trusted, past the TTL) is read again, a resync empties the
   * cache, and nothing read while the bus is not trusted is kept. With it, such an entry (and
   * every entry after a resync) is used once this confirms it, and what is read while the bus is
   * not trusted is kept, to be confirmed before each use.
   */
  readonly confirm?: (organisationId: string, value: V) => Promise<boolean>;
  /**
   * Concurrent reads of one organisation wait for one load. Only for a `load` whose answer does
   * not depend on its context (a load through a caller's transaction must stay that caller's).
   */
  readonly shareLoads?: boolean;
}

interface Entry<V> {
  value: V;
  readAt: number;
  /** Not trusted as it is: the bus resynced (changes may have been missed) or was not trusted. */
  doubtful: boolean;
}

/**
 * A value per organisation kept in process and dropped when a change to it is announced on the
 * bus. A change answers only after the bus's `sync` (`changed`), so every instance has dropped
 * the old value by then. A read that raced an announcement or a resync is not kept (the
 * generation counter); nothing kept is used as it is while the bus is not trusted; a resync
 * drops (or, with `confirm`, doubts) every entry. The TTL and the size only bound the cache.
 */
export class OrganisationCache<V, C = undefined> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped by every announcement and resync: a read that started before one is not kept. */
  private generation = 0;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly bus: NotificationBus,
    private readonly options: OrganisationCacheOptions<V, C>,
  ) {
    this.unsubscribe = [
      bus.subscribe(options.channel, (payload) => {
        this.generation++;
        const organisationId = options.organisationOf(payload);
        if (organisationId === undefined) return;
        this.entries.delete(organisationId);
        this.loading.delete(organisationId);
      }),
      bus.onResync(() => {
        this.generation++;
        this.loading.clear();
        if (options.confirm === undefined) this.entries.clear();
        else for (const entry of this.entries.values()) entry.doubtful = true;
      }),
    ];
  }

  /** Stops listening to the bus. */
  close(): void {
    for (const off of this.unsubscribe) off();
  }

  /** The organisation's value: kept, or read through `context` (and kept when it may be). */
  async get(organisationId: string, context: C, now = Date.now()): Promise<V> {
    const healthy = this.bus.healthy;
    const entry = this.entries.get(organisationId);
    if (entry !== undefined) {
      if (healthy && !entry.doubtful && now - entry.readAt < this.options.ttlMs) return entry.value;
      const { confirm } = this.options;
      if (confirm === undefined) {
        // Not trusted as it is, and nothing to check it with: dropped, read again below.
        this.entries.delete(organisationId);
      } else {
        const generation = this.generation;
        if (await confirm(organisationId, entry.value)) {
          // Confirmed as the database has it; trusted again only if nothing was announced meanwhile.
          if (
            healthy &&
            generation === this.generation &&
            this.entries.get(organisationId) === entry
          ) {
            entry.readAt = now;
            entry.doubtful = false;
          }
          return entry.value;
        }
      }
    }
    if (this.options.shareLoads !== true) return this.load(organisationId, context, now, healthy);
    const pending = this.loading.get(organisationId);
    if (pending !== undefined) return pending;
    const load = this.load(organisationId, context, now, healthy);
    this.loading.set(organisationId, load);
    try {
      return await load;
    } finally {
      if (this.loading.get(organisationId) === load) this.loading.delete(organisationId);
    }
  }

  /** After a committed change: every instance drops the organisation's entry before this resolves. */
  async changed(organisationId: string): Promise<void> {
    await this.bus.publish(this.options.channel, this.options.announcement(organisationId));
    await this.bus.sync();
  }

  private async load(organisationId: string, context: C, now: number, healthy: boolean) {
    const generation = this.generation;
    const value = await this.options.load(organisationId, context);
    const trusted = healthy && this.bus.healthy;
    if (
      value !== undefined &&
      generation === this.generation &&
      (trusted || this.options.confirm !== undefined)
    ) {
      this.entries.delete(organisationId);
      if (this.entries.size >= this.options.maxEntries) {
        // The one kept longest first out (a Map keeps insertion order).
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(organisationId, { value, readAt: now, doubtful: !trusted });
    }
    return value;
  }
}
