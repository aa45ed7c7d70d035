import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationBus } from '../notifications/notification-bus';
import { OrganisationCache } from '../notifications/organisation-cache';
import { ClassificationRulesRepository } from './classification-rules.repository';
import { type CachedClassifier, ClassifierSource } from './classifier-source';
import { type CompiledRule, compileRule, sortRules } from './rule-engine';

/** Announces that an organisation's rules changed: the payload is its id. */
export const CLASSIFICATION_CHANNEL = 'interlock_classification';

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

/** What is kept of an organisation: its snapshot, and the version read before it. */
interface Loaded {
  snapshot: ArgusSnapshot;
  /** The organisation's version read before the rules and the classifier (`readVersion`). */
  version: string;
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
  private readonly cache: OrganisationCache<Loaded>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ClassificationRulesRepository,
    @Inject(NotificationBus) bus: NotificationBus,
    @Optional() private readonly classifiers?: ClassifierSource,
  ) {
    this.cache = new OrganisationCache<Loaded>(bus, {
      channel: CLASSIFICATION_CHANNEL,
      organisationOf: (organisationId) => organisationId,
      announcement: (organisationId) => organisationId,
      load: (organisationId) => this.load(organisationId),
      ttlMs: 60_000,
      maxEntries: 10_000,
      // Kept even while the bus is not trusted: its version is checked before each use then.
      confirm: async (organisationId, kept) =>
        (await this.version(organisationId)) === kept.version,
      shareLoads: true,
    });
  }

  onModuleDestroy(): void {
    this.cache.close();
  }

  /** The organisation's rules in evaluation order. */
  async rules(organisationId: string, now = Date.now()): Promise<readonly CompiledRule[]> {
    return (await this.snapshot(organisationId, now)).rules;
  }

  /** The organisation's rules in evaluation order, and its enabled classifier. */
  async snapshot(organisationId: string, now = Date.now()): Promise<ArgusSnapshot> {
    return (await this.cache.get(organisationId, undefined, now)).snapshot;
  }

  /** The version `snapshot` compares. */
  private version(organisationId: string): Promise<string> {
    return this.repository.version(this.dataSource, organisationId);
  }

  /**
   * The version first, then (in later snapshots) the rules and the classifier: they reflect at
   * least that version, so a change committed meanwhile makes the entry look old, never current.
   */
  private async load(organisationId: string): Promise<Loaded> {
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
  changed(organisationId: string): Promise<void> {
    return this.cache.changed(organisationId);
  }
}
