import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { AUTH_CHANNEL } from '../api-keys/api-key-cache';
import type { Queryable } from '../database/query-rows.util';
import { NotificationBus } from '../notifications/notification-bus';
import { type DeadlineSettingsRow, OrganisationsRepository } from './organisations.repository';

/** Past this an entry is read again (a bound only: correctness rests on the announcements). */
const TTL_MS = 60_000;
const MAX_ORGANISATIONS = 10_000;

interface Entry {
  settings: DeadlineSettingsRow;
  readAt: number;
}

/**
 * Each organisation's deadline settings (SPEC §8e), kept in process so that opening an interrupt
 * does not spend a round trip of its own on them (issue 28). Every change to an organisation's
 * row is announced on the bus (`org:<id>` on `interlock_auth`: the organisations' trigger, and
 * the settings' update, which answers only once every instance has handled it — `sync`), and
 * each instance drops the entry at once. While the bus is not trusted the settings are read every
 * time; a resync empties the cache; a read that raced an announcement is not kept.
 */
@Injectable()
export class DeadlineSettingsCache implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every announcement and resync: a read that started before one is not kept. */
  private generation = 0;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly organisations: OrganisationsRepository,
    @Inject(NotificationBus) private readonly bus: NotificationBus,
  ) {
    this.unsubscribe = [
      bus.subscribe(AUTH_CHANNEL, (payload) => {
        this.generation++;
        if (payload.startsWith('org:')) this.entries.delete(payload.slice(4));
      }),
      bus.onResync(() => {
        this.generation++;
        this.entries.clear();
      }),
    ];
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
  }

  /** The organisation's settings (undefined: it is gone), read through `db` when not kept. */
  async get(
    db: Queryable,
    organisationId: string,
    now = Date.now(),
  ): Promise<DeadlineSettingsRow | undefined> {
    const healthy = this.bus.healthy;
    // Not trusted: nothing kept is used, and what was kept before is dropped.
    if (!healthy) this.entries.delete(organisationId);
    const entry = this.entries.get(organisationId);
    if (entry !== undefined && now - entry.readAt < TTL_MS) return entry.settings;
    const generation = this.generation;
    const row = await this.organisations.deadlineSettings(db, organisationId);
    if (row === undefined) return undefined;
    const settings: DeadlineSettingsRow = {
      interrupt_timeout_default_seconds: row.interrupt_timeout_default_seconds,
      interrupt_timeout_max_seconds: row.interrupt_timeout_max_seconds,
      interrupt_timeout_approve_allowed: row.interrupt_timeout_approve_allowed,
    };
    if (healthy && this.bus.healthy && generation === this.generation) {
      this.entries.delete(organisationId);
      if (this.entries.size >= MAX_ORGANISATIONS) {
        // The oldest kept first out (a Map keeps insertion order).
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(organisationId, { settings, readAt: now });
    }
    return settings;
  }

  /** After a committed change: every instance drops the organisation's entry before this resolves. */
  async changed(organisationId: string): Promise<void> {
    await this.bus.publish(AUTH_CHANNEL, `org:${organisationId}`);
    await this.bus.sync();
  }
}
