import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError, type MemberActor } from '@interlock/domain';
import type { MemberCall } from '../auth/caller';
import { ALWAYS_ALLOW_PRIORITY, ARG_NAME } from './always-allow.service';
import type { RuleRecord } from './classification-rules.repository';
import { ClassificationRulesService } from './classification-rules.service';
import { RuleCache } from './rule-cache';
import {
  ClassificationSuggestionsRepository,
  type SuggestionEvidenceRow,
} from './classification-suggestions.repository';
import {
  type ArgPredicate,
  type CompiledRule,
  evaluateAction,
  parseRuleMatch,
  RULE_LIMITS,
  type RuleDefinition,
  type RuleMatch,
} from './rule-engine';

/** The evidence a suggestion needs (issue 29 §2): this many approvals by people, no rejection… */
export const SUGGESTION_MIN_APPROVALS = 5;
/** …within this many days. */
export const SUGGESTION_WINDOW_DAYS = 30;
/** The latest approvals a suggestion's conditions are read from. */
const SAMPLES = 200;
/** A list shows at most this many, the most approved first. */
export const SUGGESTIONS_LISTED = 50;
/** A string argument with at most this many distinct approved values is suggested as `in`. */
const IN_VALUES = 5;

export interface Suggestion {
  id: string;
  keyId: string;
  keyName: string;
  actionName: string;
  shape: Record<string, string>;
  approvals: number;
  lastApprovedAt: string;
  latestInterruptId: string;
  /** The rule applying it makes (the person picks its mode). */
  rule: { name: string; priority: number; match: RuleMatch; outcome: { type: 'approve' } };
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );

/**
 * A suggestion's id: a UUID derived from its organisation, key, action name and argument shape,
 * so the same evidence keeps its id from one reading to the next (and names nothing elsewhere).
 */
export function suggestionId(
  organisationId: string,
  keyId: string,
  actionName: string,
  shape: Record<string, string>,
): string {
  const hex = createHash('sha256')
    .update([organisationId, keyId, actionName, canonical(shape)].join('\n'))
    .digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The narrowest conditions the approvals support, argument by argument: one value every time →
 * `eq`; numbers that varied → `lte` the largest approved; strings that took a few values (fewer
 * than the approvals) → `in` those; anything else (ids, free text, objects that varied) → no
 * condition. Arguments a rule cannot name are left out.
 */
export function suggestedConditions(
  shape: Record<string, string>,
  samples: readonly Record<string, unknown>[],
): ArgPredicate[] {
  const conditions: ArgPredicate[] = [];
  for (const name of Object.keys(shape).sort()) {
    if (conditions.length === RULE_LIMITS.predicates) break;
    if (!ARG_NAME.test(name) || name.length > RULE_LIMITS.pathLength) continue;
    const values = samples.map((s) => s[name]);
    const distinct = new Map(values.map((v) => [canonical(v), v]));
    if (distinct.size === 1) {
      const [[text, value]] = distinct;
      if (text.length <= RULE_LIMITS.stringValue) conditions.push({ path: name, op: 'eq', value });
    } else if (shape[name] === 'number') {
      conditions.push({ path: name, op: 'lte', value: Math.max(...(values as number[])) });
    } else if (
      shape[name] === 'string' &&
      distinct.size <= IN_VALUES &&
      distinct.size < values.length &&
      [...distinct.keys()].every((t) => t.length <= RULE_LIMITS.stringValue)
    ) {
      conditions.push({ path: name, op: 'in', value: [...distinct.values()].sort() });
    }
  }
  return conditions;
}

/** The suggested rule's name (a suggestion's name in the audit log too). */
const suggestedRuleName = (actionName: string, keyName: string): string =>
  `Approve ${actionName} from ${keyName}`.slice(0, RULE_LIMITS.name);

/** An action name with `*` or `?` would be a glob in a rule: no suggestion is made for it. */
const suggestible = (row: SuggestionEvidenceRow) => !/[*?]/.test(row.action_name);

/**
 * Whether the organisation's rules already approve what a suggestion is made of (SPEC §8d): an
 * enforce-mode rule decides `approve` for every approved action it was read from (its key, name
 * and arguments; no session and no title, so a rule that needs either does not cover it).
 */
export function coveredByRules(
  rules: readonly CompiledRule[],
  row: Pick<SuggestionEvidenceRow, 'key_id' | 'action_name' | 'samples'>,
  now: number,
): boolean {
  if (rules.length === 0 || row.samples.length === 0) return false;
  return row.samples.every(
    (args) =>
      evaluateAction(
        rules,
        { actionName: row.action_name, args, keyId: row.key_id, sessionId: null, titleWords: [] },
        now,
      ).enforced?.outcome.type === 'approve',
  );
}

/**
 * Suggestions (SPEC §8d, issue 29 §2): after at least 5 approvals and no rejection by people of
 * the same (key, action name, argument shape) in 30 days, argus suggests the rule that would
 * have approved them. Nothing is enforced until a person applies one (choosing shadow or
 * enforce); a dismissal is remembered. Both are audited.
 */
@Injectable()
export class ClassificationSuggestionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly suggestions: ClassificationSuggestionsRepository,
    private readonly rules: ClassificationRulesService,
    private readonly cache: RuleCache,
  ) {}

  /** The suggestions to show: not those the organisation's enforce-mode rules already cover. */
  async list(organisationId: string): Promise<Suggestion[]> {
    const [rows, rules] = await Promise.all([
      this.suggestions.evidence(this.dataSource, organisationId, {
        days: SUGGESTION_WINDOW_DAYS,
        minApprovals: SUGGESTION_MIN_APPROVALS,
        samples: SAMPLES,
        limit: SUGGESTIONS_LISTED,
      }),
      this.cache.rules(organisationId),
    ]);
    const now = Date.now();
    return rows
      .filter((row) => suggestible(row) && !coveredByRules(rules, row, now))
      .map((row) => this.suggestionOf(organisationId, row));
  }

  /** Makes the suggested rule in the mode the person picked; the suggestion is then gone. */
  async apply(
    { organisationId, actor, ip }: MemberCall,
    id: string,
    mode: 'shadow' | 'enforce',
  ): Promise<RuleRecord> {
    const suggestion = await this.find(organisationId, id);
    const definition: RuleDefinition = { ...suggestion.rule, mode, expiresAt: null };
    return this.rules.insert(organisationId, actor, definition, ip, {
      origin: { type: 'suggestion', ...this.evidenceOf(suggestion) },
      interruptId: suggestion.latestInterruptId,
      also: async (tx, rule) => {
        await this.remember(tx, organisationId, actor, suggestion, 'applied', rule.id);
      },
    });
  }

  /** Dismisses a suggestion: it is not made again for this key, action and shape. */
  async dismiss({ organisationId, actor, ip }: MemberCall, id: string): Promise<void> {
    const suggestion = await this.find(organisationId, id);
    await this.dataSource.transaction(async (tx) => {
      await this.remember(tx, organisationId, actor, suggestion, 'dismissed', null);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.suggestion_dismissed',
        actor,
        target: { type: 'classification', id: suggestion.id, name: suggestion.rule.name },
        metadata: this.evidenceOf(suggestion),
        ipAddress: ip,
      });
    });
  }

  /**
   * Undoes a dismissal: the suggestion is listed again while its evidence holds. 404 when the
   * organisation has no dismissal of that id (unknown, applied, already restored, another's).
   */
  async restore({ organisationId, actor, ip }: MemberCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const restored = await this.suggestions.restore(tx, organisationId, id);
      if (restored === null) throw DomainError.of('NOT_FOUND');
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.suggestion_restored',
        actor,
        target: {
          type: 'classification',
          id,
          name: suggestedRuleName(restored.action_name, restored.key_name ?? restored.key_id),
        },
        metadata: {
          suggestionId: id,
          keyId: restored.key_id,
          actionName: restored.action_name,
          shape: restored.shape,
        },
        ipAddress: ip,
      });
    });
  }

  /** A suggestion as it stands now: 404 when the evidence no longer holds, or it was dealt with. */
  private async find(organisationId: string, id: string): Promise<Suggestion> {
    const rows = await this.suggestions.evidence(this.dataSource, organisationId, {
      days: SUGGESTION_WINDOW_DAYS,
      minApprovals: SUGGESTION_MIN_APPROVALS,
      samples: SAMPLES,
    });
    for (const row of rows.filter(suggestible)) {
      if (suggestionId(organisationId, row.key_id, row.action_name, row.shape) === id)
        return this.suggestionOf(organisationId, row);
    }
    throw DomainError.of('NOT_FOUND');
  }

  private async remember(
    tx: Parameters<ClassificationSuggestionsRepository['record']>[0],
    organisationId: string,
    actor: MemberActor,
    suggestion: Suggestion,
    status: 'dismissed' | 'applied',
    ruleId: string | null,
  ): Promise<void> {
    const recorded = await this.suggestions.record(tx, organisationId, {
      id: suggestion.id,
      keyId: suggestion.keyId,
      actionName: suggestion.actionName,
      shape: suggestion.shape,
      status,
      ruleId,
      decidedById: actor.id,
      decidedByName: actor.name,
    });
    if (!recorded)
      throw new DomainError(
        'CONFLICT',
        'Somebody has just applied or dismissed this suggestion: reload the suggestions.',
      );
  }

  private evidenceOf(suggestion: Suggestion) {
    return {
      suggestionId: suggestion.id,
      keyId: suggestion.keyId,
      actionName: suggestion.actionName,
      shape: suggestion.shape,
      approvals: suggestion.approvals,
    };
  }

  private suggestionOf(organisationId: string, row: SuggestionEvidenceRow): Suggestion {
    const conditions = suggestedConditions(row.shape, row.samples);
    const match = parseRuleMatch({
      actions: [row.action_name],
      keyIds: [row.key_id],
      ...(conditions.length === 0 ? {} : { args: conditions }),
    });
    return {
      id: suggestionId(organisationId, row.key_id, row.action_name, row.shape),
      keyId: row.key_id,
      keyName: row.key_name,
      actionName: row.action_name,
      shape: row.shape,
      approvals: row.approvals,
      lastApprovedAt: row.last_approved_at.toISOString(),
      latestInterruptId: row.latest_interrupt_id,
      rule: {
        name: suggestedRuleName(row.action_name, row.key_name),
        priority: ALWAYS_ALLOW_PRIORITY,
        match,
        outcome: { type: 'approve' },
      },
    };
  }
}
