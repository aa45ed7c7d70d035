import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationBus } from '../notifications/notification-bus';
import { ClassificationRulesRepository, versionOf } from './classification-rules.repository';
import { type CompiledRule, compileRule, sortRules } from './rule-engine';

/** Announces that an organisation's rules changed: the payload is its id. */
export const CLASSIFICATION_CHANNEL = 'interlock_classification';

/** Past this, an entry is checked against the database's version before it is used again. */
const TTL_MS = 60_000;
const MAX_ORGANISATIONS = 10_000;

interface Entry {
  rules: readonly CompiledRule[];
  /** The rules' version when read (ClassificationRulesRepository.version). */
  version: string;
  checkedAt: number;
  /** Set on a resync of the bus: changes may have been missed, check the version first. */
  doubtful: boolean;
}

/**
 * Each organisation's rules, compiled and sorted, kept in process: `POST /api/interrupts` reads
 * them from memory, not with a query per action. A change through the API is announced on the
 * notification bus and waited for (`sync`) before it answers, so every instance evaluates the new
 * rules from then on. While the bus cannot be trusted (and after a resync, or a minute) a kept
 * entry is used only once one cheap query confirms the rules' version (count and latest change)
 * is unchanged; otherwise the rules are read and compiled again.
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
        for (const entry of this.entries.values()) entry.doubtful = true;
        this.loading.clear();
      }),
    ];
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
  }

  /** The organisation's rules in evaluation order. */
  async rules(organisationId: string, now = Date.now()): Promise<readonly CompiledRule[]> {
    const healthy = this.bus.healthy;
    const entry = this.entries.get(organisationId);
    if (entry !== undefined) {
      if (healthy && !entry.doubtful && now - entry.checkedAt < TTL_MS) return entry.rules;
      const generation = this.generation;
      if ((await this.repository.version(this.dataSource, organisationId)) === entry.version) {
        // Confirmed as the database has it; trusted again only if nothing was announced meanwhile.
        if (
          healthy &&
          generation === this.generation &&
          this.entries.get(organisationId) === entry
        ) {
          entry.checkedAt = now;
          entry.doubtful = false;
        }
        return entry.rules;
      }
    }
    const pending = this.loading.get(organisationId);
    if (pending !== undefined) return pending;
    const generation = this.generation;
    const load = this.repository.list(this.dataSource, organisationId).then((rows) => ({
      rules: sortRules(rows.map(compileRule)),
      version: versionOf(rows),
    }));
    const rules = load.then((l) => l.rules);
    // Awaited below (and by concurrent callers); a failure is theirs, not an unhandled rejection.
    rules.catch(() => undefined);
    this.loading.set(organisationId, rules);
    try {
      const loaded = await load;
      if (generation === this.generation) {
        if (this.entries.size >= MAX_ORGANISATIONS && !this.entries.has(organisationId)) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
        // Kept even while the bus is not trusted: its version is checked before each use then.
        this.entries.set(organisationId, {
          rules: loaded.rules,
          version: loaded.version,
          checkedAt: now,
          doubtful: !healthy,
        });
      }
      return loaded.rules;
    } finally {
      if (this.loading.get(organisationId) === rules) this.loading.delete(organisationId);
    }
  }

  /** After a committed change: every instance drops the organisation's rules before this resolves. */
  async changed(organisationId: string): Promise<void> {
    await this.bus.publish(CLASSIFICATION_CHANNEL, organisationId);
    await this.bus.sync();
  }
}
