import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationBus } from '../notifications/notification-bus';
import { ClassificationRulesRepository } from './classification-rules.repository';
import { type CompiledRule, compileRule, sortRules } from './rule-engine';

/** Announces that an organisation's rules changed: the payload is its id. */
export const CLASSIFICATION_CHANNEL = 'interlock_classification';

/** A safety net only: every change is announced on the bus, which empties the entry at once. */
const TTL_MS = 60_000;
const MAX_ORGANISATIONS = 10_000;

interface Entry {
  rules: readonly CompiledRule[];
  loadedAt: number;
}

/**
 * Each organisation's rules, compiled and sorted, kept in process: `POST /api/interrupts` reads
 * them from memory, not with a query per action. A change through the API is announced on the
 * notification bus and waited for (`sync`) before it answers, so every instance evaluates the new
 * rules from then on. While the bus is unhealthy the cache is bypassed; on resync it is emptied.
 */
@Injectable()
export class RuleCache implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<readonly CompiledRule[]>>();
  private generation = 0;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ClassificationRulesRepository,
    @Inject(NotificationBus) private readonly bus: NotificationBus,
  ) {
    this.unsubscribe = [
      bus.subscribe(CLASSIFICATION_CHANNEL, (organisationId) => {
        this.generation++;
        this.entries.delete(organisationId);
        this.loading.delete(organisationId);
      }),
      bus.onResync(() => {
        this.generation++;
        this.entries.clear();
        this.loading.clear();
      }),
    ];
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
  }

  /** The organisation's rules in evaluation order. */
  async rules(organisationId: string, now = Date.now()): Promise<readonly CompiledRule[]> {
    if (this.bus.healthy) {
      const entry = this.entries.get(organisationId);
      if (entry !== undefined && now - entry.loadedAt < TTL_MS) return entry.rules;
      const pending = this.loading.get(organisationId);
      if (pending !== undefined) return pending;
    }
    const generation = this.generation;
    const load = this.repository
      .list(this.dataSource, organisationId)
      .then((rows) => sortRules(rows.map(compileRule)));
    if (!this.bus.healthy) return load;
    this.loading.set(organisationId, load);
    try {
      const rules = await load;
      if (generation === this.generation && this.bus.healthy) {
        if (this.entries.size >= MAX_ORGANISATIONS) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
        this.entries.set(organisationId, { rules, loadedAt: now });
      }
      return rules;
    } finally {
      if (this.loading.get(organisationId) === load) this.loading.delete(organisationId);
    }
  }

  /** After a committed change: every instance drops the organisation's rules before this resolves. */
  async changed(organisationId: string): Promise<void> {
    await this.bus.publish(CLASSIFICATION_CHANNEL, organisationId);
    await this.bus.sync();
  }
}
