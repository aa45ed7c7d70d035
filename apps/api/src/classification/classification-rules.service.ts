import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import {
  type AuditEventCatalogue,
  type ClassificationRuleSnapshot,
  DomainError,
  type MemberActor,
} from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { lockCurrentMember } from '../members/memberships.repository';
import { TeamsService } from '../teams/teams.service';
import {
  ClassificationMatchesRepository,
  type RuleStatsRow,
} from './classification-matches.repository';
import { ClassificationRulesRepository, type RuleRecord } from './classification-rules.repository';
import type {
  ClassificationRuleStats,
  ClassificationRuleStatsResponse,
} from './dto/classification-rule.dto';
import type {
  CreateClassificationRuleCommand,
  UpdateClassificationRuleCommand,
} from './classification-rule.command';
import { RuleCache } from './rule-cache';
import {
  MAX_RULES_PER_ORGANISATION,
  parseRuleMatch,
  parseRuleOutcome,
  type RuleDefinition,
  RuleValidationError,
} from './rule-engine';
import type { MemberCall } from '../auth/caller';

/** A rule's statistics list at most this many disagreements (the latest). */
export const MAX_DISAGREEMENTS = 50;

function statsOf(row: RuleStatsRow | undefined): ClassificationRuleStats {
  return {
    shadow: {
      matched: row?.shadow_matched ?? 0,
      wouldDecide: row?.shadow_would_decide ?? 0,
      decidedByPeople: row?.shadow_decided_by_people ?? 0,
      agreed: row?.shadow_agreed ?? 0,
    },
    enforce: { matched: row?.enforce_matched ?? 0, decided: row?.enforce_decided ?? 0 },
    lastMatchedAt: row?.last_matched_at?.toISOString() ?? null,
  };
}

const DEFAULT_PRIORITY = 100;

/** Where a rule not written in the editor came from, as its creation's audit entry says. */
export type RuleCreatedOrigin = NonNullable<
  AuditEventCatalogue['classification.rule_created']['metadata']['origin']
>;

function snapshot(rule: RuleDefinition): ClassificationRuleSnapshot {
  return {
    name: rule.name,
    mode: rule.mode,
    priority: rule.priority,
    match: rule.match as Record<string, unknown>,
    outcome: rule.outcome as Record<string, unknown>,
    expiresAt: rule.expiresAt,
  };
}

function normaliseTimestamp(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw new DomainError(
      'VALIDATION_FAILED',
      'expiresAt must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z',
    );
  return new Date(ms).toISOString();
}

function checked<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof RuleValidationError)
      throw new DomainError('VALIDATION_FAILED', error.message);
    throw error;
  }
}

/**
 * Classification rules (SPEC §8d): create, read, change and delete, each change audited by the
 * member in its transaction and announced to every instance's rule cache before it answers.
 */
@Injectable()
export class ClassificationRulesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: ClassificationRulesRepository,
    private readonly cache: RuleCache,
    private readonly teams: TeamsService,
    private readonly matches: ClassificationMatchesRepository,
  ) {}

  /** The rules in evaluation order, each with its statistics. */
  async list(organisationId: string): Promise<(RuleRecord & { stats: ClassificationRuleStats })[]> {
    const [rules, stats] = await Promise.all([
      this.rules.list(this.dataSource, organisationId),
      this.matches.statsByRule(this.dataSource, organisationId),
    ]);
    const byRule = new Map(stats.map((s) => [s.rule_id, s]));
    return rules.map((rule) => ({ ...rule, stats: statsOf(byRule.get(rule.id)) }));
  }

  /**
   * One rule's statistics (SPEC §8d): what it matched since what it matches or does last changed —
   * in shadow mode, how often it would have decided and how often people decided the same — and
   * the latest disagreements.
   */
  async stats(organisationId: string, id: string): Promise<ClassificationRuleStatsResponse> {
    const rule = await this.get(organisationId, id);
    const [row, disagreements] = await Promise.all([
      this.matches.statsOfRule(this.dataSource, organisationId, id),
      this.matches.disagreements(this.dataSource, organisationId, id, MAX_DISAGREEMENTS),
    ]);
    return {
      ruleId: rule.id,
      ...statsOf(row),
      disagreements: disagreements.map((d) => ({
        interruptId: d.interrupt_id,
        title: d.title,
        actionName: d.action_name,
        outcome: d.outcome,
        decision: d.person_decision,
        decidedByName: d.person_name,
        decidedAt: d.decided_at.toISOString(),
      })),
    };
  }

  async get(organisationId: string, id: string): Promise<RuleRecord> {
    const rule = await this.rules.read(this.dataSource, organisationId, id);
    if (rule === undefined) throw DomainError.of('NOT_FOUND');
    return rule;
  }

  async create({
    organisationId,
    actor,
    rule: body,
    ip,
  }: CreateClassificationRuleCommand): Promise<RuleRecord> {
    const definition: RuleDefinition = {
      name: body.name,
      mode: body.mode,
      priority: body.priority ?? DEFAULT_PRIORITY,
      match: checked(() => parseRuleMatch(body.match)),
      outcome: checked(() => parseRuleOutcome(body.outcome)),
      expiresAt: normaliseTimestamp(body.expiresAt),
    };
    return this.insert(organisationId, actor, definition, ip);
  }

  /**
   * Saves a checked rule: the organisation's cap, the route's assignee, the member's audit entry
   * (with where the rule came from: "Always allow this" or a suggestion), what the origin records
   * with it (`from.also`, in the same transaction), then every instance's cache.
   */
  async insert(
    organisationId: string,
    actor: MemberActor,
    definition: RuleDefinition,
    ip: string | null,
    from?: {
      origin: RuleCreatedOrigin;
      interruptId: string;
      also?: (tx: Queryable, rule: RuleRecord) => Promise<void>;
    },
  ): Promise<RuleRecord> {
    const created = await this.dataSource.transaction(async (tx) => {
      await this.checkAssignee(tx, organisationId, definition);
      if ((await this.rules.count(tx, organisationId)) >= MAX_RULES_PER_ORGANISATION) {
        throw new DomainError(
          'CONFLICT',
          `This organisation has reached its limit of ${MAX_RULES_PER_ORGANISATION.toLocaleString('en-GB')} classification rules.`,
        );
      }
      const rule = await this.rules.insert(
        tx,
        organisationId,
        randomUUID(),
        definition,
        from === undefined
          ? undefined
          : { origin: from.origin.type, interruptId: from.interruptId },
      );
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.rule_created',
        actor,
        target: { type: 'classification', id: rule.id, name: rule.name },
        metadata: { rule: snapshot(rule), ...(from === undefined ? {} : { origin: from.origin }) },
        ipAddress: ip,
      });
      await from?.also?.(tx, rule);
      return rule;
    });
    await this.cache.changed(organisationId);
    return created;
  }

  async update({
    organisationId,
    actor,
    ruleId: id,
    changes: body,
    ip,
  }: UpdateClassificationRuleCommand): Promise<RuleRecord> {
    const match = body.match === undefined ? undefined : checked(() => parseRuleMatch(body.match));
    const outcome =
      body.outcome === undefined ? undefined : checked(() => parseRuleOutcome(body.outcome));
    let changed = false;
    const updated = await this.dataSource.transaction(async (tx) => {
      const before = await this.rules.read(tx, organisationId, id, true);
      if (before === undefined) throw DomainError.of('NOT_FOUND');
      const after: RuleDefinition = {
        name: body.name ?? before.name,
        mode: body.mode ?? before.mode,
        priority: body.priority ?? before.priority,
        match: match ?? before.match,
        outcome: outcome ?? before.outcome,
        expiresAt:
          body.expiresAt === undefined ? before.expiresAt : normaliseTimestamp(body.expiresAt),
      };
      if (outcome !== undefined) await this.checkAssignee(tx, organisationId, after);
      const was = snapshot(before);
      const now = snapshot(after);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const key of Object.keys(now) as (keyof ClassificationRuleSnapshot)[]) {
        if (JSON.stringify(was[key]) !== JSON.stringify(now[key]))
          changes[key] = { from: was[key], to: now[key] };
      }
      if (Object.keys(changes).length === 0) return before;
      const rule = await this.rules.update(tx, organisationId, id, after);
      // The figures describe the rule as it was: a new match or outcome starts them again.
      if (changes.match !== undefined || changes.outcome !== undefined)
        await this.matches.forgetRule(tx, organisationId, id);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.rule_updated',
        actor,
        target: { type: 'classification', id, name: rule.name },
        metadata: { changes },
        ipAddress: ip,
      });
      changed = true;
      return rule;
    });
    if (changed) await this.cache.changed(organisationId);
    return updated;
  }

  async remove({ organisationId, actor, ip }: MemberCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const rule = await this.rules.read(tx, organisationId, id, true);
      if (rule === undefined) throw DomainError.of('NOT_FOUND');
      await this.rules.remove(tx, organisationId, id);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.rule_deleted',
        actor,
        target: { type: 'classification', id, name: rule.name },
        metadata: { rule: snapshot(rule) },
        ipAddress: ip,
      });
    });
    await this.cache.changed(organisationId);
  }

  /**
   * A route's assignee must be a current member or a team of the organisation, and so must its
   * approver team (404 otherwise); the approver team must have at least the quorum's members
   * (400, the text of an action request's approverTeam, SPEC §8e).
   */
  private async checkAssignee(
    tx: Queryable,
    organisationId: string,
    rule: RuleDefinition,
  ): Promise<void> {
    if (rule.outcome.type !== 'route') return;
    const { assignTo: to, approverTeam, requiredApprovals } = rule.outcome;
    if (approverTeam !== undefined) {
      const team = await this.teams.findApproverTeam(tx, organisationId, approverTeam);
      if (team === undefined) throw DomainError.of('NOT_FOUND');
      const required = requiredApprovals ?? 1;
      if (team.memberCount < required)
        throw new DomainError(
          'VALIDATION_FAILED',
          `outcome.approverTeam: team ${team.name} has ${team.memberCount} member${team.memberCount === 1 ? '' : 's'}, fewer than requiredApprovals (${required})`,
        );
    }
    if (to === undefined) return;
    if ('teamId' in to) {
      await this.teams.lockTeam(tx, organisationId, to.teamId, 'FOR KEY SHARE');
      return;
    }
    if ((await lockCurrentMember(tx, organisationId, to.memberId)) === undefined)
      throw DomainError.of('NOT_FOUND');
  }
}
