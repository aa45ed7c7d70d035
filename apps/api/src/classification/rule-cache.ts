import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationBus } from '../notifications/notification-bus';
import { ClassificationRulesRepository } from './classification-rules.repository';
import { type CachedClassifier, ClassifierSource } from './classifier-source';
import { type CompiledRule, compileRule, sortRules } from './rule-engine';

/** Announces that an organisation's rules changed: the payload is its id. */
export const CLASSIFICATION_CHANNEL = 'interlock_classification';

/** Past this, an entry is checked against the database's version before it is used again. */
const TTL_MS = 60_000;
const MAX_ORGANISATIONS = 10_000;

/** What argus needs of an organisation for each new interrupt: its rules and its classifier. */
export interface ArgusSnapshot {
  rules: readonly CompiledRule[];
  /** The enabled external classifier; null: none. */
  classifier: CachedClassifier | null;
  /**
   * The organisation's rules-and-classifier version these were read at (`classification_versions`,
   * 0 before its first write): every receipt of an evaluation with them carries it (SPEC §8d).
   */
  policyVersion: number;
}

interface Entry {
  snapshot: ArgusSnapshot;
  /** The organisation's version read before the rules and the classifier (`readVersion`). */
  version: string;
  checkedAt: number;
  /** Set on a resync of the bus: changes may have been missed, check the version first. */
  doubtful: boolean;
}

/**
 * Each organisation's rules, compiled and sorted, and its external classifier, kept in process: `POST /api/interrupts` reads
 * them from memory, not with a query per action. A change through the API is announced on the
 * notification bus and waited for (`sync`) before it answers, so every instance evaluates the new
 * rules from then on. While the bus cannot be trusted (and after a resync, or a minute) a kept
 * entry is used only once one cheap query confirms the organisation's version (a counter every
 * write of its rules or classifier raises, in commit order) is unchanged; otherwise the rules are
 * read and compiled again.
 */
@Injectable()
export class RuleCache implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<ArgusSnapshot>>();
  private generation = 0;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ClassificationRulesRepository,
    @Inject(NotificationBus) private readonly bus: NotificationBus,
    @Optional() private readonly classifiers?: ClassifierSource,
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
    return (await this.snapshot(organisationId, now)).rules;
  }

  /** The organisation's rules in evaluation order, and its enabled classifier. */
  async snapshot(organisationId: string, now = Date.now()): Promise<ArgusSnapshot> {
    const healthy = this.bus.healthy;
    const entry = this.entries.get(organisationId);
    if (entry !== undefined) {
      if (healthy && !entry.doubtful && now - entry.checkedAt < TTL_MS) return entry.snapshot;
      const generation = this.generation;
      if ((await this.version(organisationId)) === entry.version) {
        // Confirmed as the database has it; trusted again only if nothing was announced meanwhile.
        if (
          healthy &&
          generation === this.generation &&
          this.entries.get(organisationId) === entry
        ) {
          entry.checkedAt = now;
          entry.doubtful = false;
        }
        return entry.snapshot;
      }
    }
    const pending = this.loading.get(organisationId);
    if (pending !== undefined) return pending;
    const generation = this.generation;
    const load = this.load(organisationId);
    const snapshot = load.then((l) => l.snapshot);
    // Awaited below (and by concurrent callers); a failure is theirs, not an unhandled rejection.
    snapshot.catch(() => undefined);
    this.loading.set(organisationId, snapshot);
    try {
      const loaded = await load;
      if (generation === this.generation) {
        if (this.entries.size >= MAX_ORGANISATIONS && !this.entries.has(organisationId)) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
        // Kept even while the bus is not trusted: its version is checked before each use then.
        this.entries.set(organisationId, {
          snapshot: loaded.snapshot,
          version: loaded.version,
          checkedAt: now,
          doubtful: !healthy,
        });
      }
      return loaded.snapshot;
    } finally {
      if (this.loading.get(organisationId) === snapshot) this.loading.delete(organisationId);
    }
  }

  /** The version `snapshot` compares. */
  private version(organisationId: string): Promise<string> {
    return this.repository.version(this.dataSource, organisationId);
  }

  /**
   * The version first, then (in later snapshots) the rules and the classifier: they reflect at
   * least that version, so a change committed meanwhile makes the entry look old, never current.
   */
  private async load(
    organisationId: string,
  ): Promise<{ snapshot: ArgusSnapshot; version: string }> {
    const version = await this.version(organisationId);
    const [rows, classifier] = await Promise.all([
      this.repository.list(this.dataSource, organisationId),
      this.classifiers?.load(this.dataSource, organisationId),
    ]);
    return {
      snapshot: {
        rules: sortRules(rows.map(compileRule)),
        classifier: classifier ?? null,
        policyVersion: Number(version),
      },
      version,
    };
  }

  /** After a committed change: every instance drops the organisation's rules before this resolves. */
  async changed(organisationId: string): Promise<void> {
    await this.bus.publish(CLASSIFICATION_CHANNEL, organisationId);
    await this.bus.sync();
  }
}
