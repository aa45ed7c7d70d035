import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { AUTH_CHANNEL } from '../api-keys/api-key-cache';
import type { Queryable } from '../database/query-rows.util';
import { NotificationBus } from '../notifications/notification-bus';
import { OrganisationCache } from '../notifications/organisation-cache';
import { type DeadlineSettingsRow, OrganisationsRepository } from './organisations.repository';

/**
 * Each organisation's deadline settings (SPEC §8e), kept in process so that opening an interrupt
 * does not spend a round trip of its own on them (issue 28). Every change to an organisation's
 * row is announced on the bus (`org:<id>` on `interlock_auth`: the organisations' trigger, and
 * the settings' update, which answers only once every instance has handled it — `changed`), and
 * each instance drops the entry at once (`OrganisationCache`: while the bus is not trusted the
 * settings are read every time; a resync empties the cache; a read that raced an announcement is
 * not kept; a minute and 10,000 organisations bound it).
 */
@Injectable()
export class DeadlineSettingsCache implements OnModuleDestroy {
  private readonly cache: OrganisationCache<DeadlineSettingsRow | undefined, Queryable>;

  constructor(
    organisations: OrganisationsRepository,
    @Inject(NotificationBus) bus: NotificationBus,
  ) {
    this.cache = new OrganisationCache(bus, {
      channel: AUTH_CHANNEL,
      organisationOf: (payload) => (payload.startsWith('org:') ? payload.slice(4) : undefined),
      announcement: (organisationId) => `org:${organisationId}`,
      load: async (organisationId, db) => {
        const row = await organisations.deadlineSettings(db, organisationId);
        return row === undefined
          ? undefined
          : {
              interrupt_timeout_default_seconds: row.interrupt_timeout_default_seconds,
              interrupt_timeout_max_seconds: row.interrupt_timeout_max_seconds,
              interrupt_timeout_approve_allowed: row.interrupt_timeout_approve_allowed,
            };
      },
      ttlMs: 60_000,
      maxEntries: 10_000,
    });
  }

  onModuleDestroy(): void {
    this.cache.close();
  }

  /** The organisation's settings (undefined: it is gone), read through `db` when not kept. */
  get(
    db: Queryable,
    organisationId: string,
    now?: number,
  ): Promise<DeadlineSettingsRow | undefined> {
    return this.cache.get(organisationId, db, now);
  }

  /** After a committed change: every instance drops the organisation's entry before this resolves. */
  changed(organisationId: string): Promise<void> {
    return this.cache.changed(organisationId);
  }
}
