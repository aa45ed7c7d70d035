import { Injectable, Logger } from '@nestjs/common';
import { searchWords, writeAuditEntry } from '@interlock/audit';
import type {
  AuditActorRef,
  ClassificationReceipt,
  Decision,
  MemberActor,
} from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import {
  ClassificationMatchesRepository,
  type MatchToRecord,
  type ShadowOpinion,
} from './classification-matches.repository';
import { ClassificationRulesRepository } from './classification-rules.repository';
import { classifierTarget } from './classifier-source';
import { type ClassifierResult, ExternalClassifier, highestRisk } from './external-classifier';
import { RuleCache } from './rule-cache';
import {
  type ActionFacts,
  type AppliedOutcome,
  type AppliedRule,
  type CompiledRule,
  evaluateAction,
  type Risk,
  type StoredRule,
} from './rule-engine';

/** The actor of everything argus does (SPEC §1, §8d): no id, the name `argus`. */
export const ARGUS_ACTOR: AuditActorRef = { type: 'argus', id: null, name: 'argus' };

/**
 * The circuit breaker (issue 29 §1.5): when argus has rejected this many actions of one key
 * within the window, that key's next interrupts go to a person whole, until the window moves on.
 */
export const BREAKER_REJECTIONS = 10;
export const BREAKER_WINDOW_SECONDS = 600;

/** One action request as argus sees it: its facts and the decisions it allows. */
export interface ActionToClassify extends ActionFacts {
  allowedDecisions: readonly Decision[];
}

/** What argus does to one action. */
export interface ActionPlan {
  actionName: string;
  /** The decision argus writes (enforced approve or reject, allowed by the action). */
  decision?: { decision: 'approve' | 'reject'; message: string | null; ruleId: string };
  /** The route an enforced rule applies to the interrupt. */
  route?: { ruleId: string; outcome: Extract<AppliedOutcome, { type: 'route' }> };
  /** The decisions the action allows (a shadow rule "would decide" only a decision it allows). */
  allowedDecisions: readonly Decision[];
  /** The receipts: one per matching rule (shadow ones first, then the enforced one). */
  receipts: {
    action: 'classification.applied' | 'classification.shadowed';
    metadata: ClassificationReceipt;
  }[];
  /** What the external classifier said of the action, or why it said nothing (absent: none is set up). */
  classifier?: ClassifierResult;
}

/**
 * Argus's plan for a new interrupt: per action what it does (in the request's order; empty when
 * no rule matched any action and no classifier is set up: nothing to do), and the classifier's
 * highest risk and labels over the actions it answered for (null and [] when it answered for none).
 */
export type ArgusPlan =
  | { ok: true; actions: ActionPlan[]; risk: Risk | null; labels: string[] }
  | { ok: false; reason: string };

/** What the classifier is told of a new interrupt beside each action. */
export interface InterruptToClassify {
  title: string;
  description: string | null;
  keyName: string;
}

function receipt(
  rule: AppliedRule,
  actionName: string,
  enforced: boolean,
  policyVersion: number,
): ClassificationReceipt {
  return {
    actionName,
    ruleIds: [rule.id],
    policyVersion,
    mode: rule.mode === 'enforce' ? 'enforce' : 'shadow',
    outcome: rule.outcome.type,
    enforced,
    ...(rule.policyIds === undefined ? {} : { policyIds: rule.policyIds }),
    // A route's quorum (SPEC §8d): what it sets — applied when enforced, only recorded in shadow.
    ...(rule.outcome.type === 'route' && rule.outcome.requiredApprovals !== undefined
      ? { requiredApprovals: rule.outcome.requiredApprovals }
      : {}),
    ...(rule.outcome.type === 'route' && rule.outcome.approverTeam !== undefined
      ? { approverTeamId: rule.outcome.approverTeam.teamId }
      : {}),
    // A route's priority (SPEC §8e): the interrupt's, applied when enforced, recorded in shadow.
    ...(rule.outcome.type === 'route' && rule.outcome.priority !== undefined
      ? { priority: rule.outcome.priority }
      : {}),
    ...(rule.policyError === undefined
      ? {}
      : { skipped: 'policy_error' as const, error: rule.policyError.slice(0, 500) }),
  };
}

/** A person's decision on an action, with what argus matches the action on. */
export interface PersonDecision {
  interruptId: string;
  title: string;
  keyId: string | null;
  sessionId: string | null;
  actionName: string;
  args: Record<string, unknown>;
  decision: Decision;
  actor: MemberActor;
  ip: string | null;
}

/**
 * The "Always allow this" rules a person's rejection pauses (SPEC §8d): enforced, approving, not
 * expired, and matching the rejected action as it was opened.
 */
export function rulesToPause(
  rules: readonly CompiledRule[],
  decided: PersonDecision,
  now: number,
): StoredRule[] {
  if (decided.decision !== 'reject' || decided.keyId === null) return [];
  const facts: ActionFacts = {
    actionName: decided.actionName,
    args: decided.args,
    keyId: decided.keyId,
    sessionId: decided.sessionId,
    titleWords: searchWords(decided.title),
    title: decided.title,
  };
  return rules
    .filter(
      (c) =>
        c.rule.origin === 'always_allow' &&
        c.rule.mode === 'enforce' &&
        c.rule.outcome.type === 'approve' &&
        (c.expiresAtMs === null || c.expiresAtMs > now) &&
        c.test(facts),
    )
    .map((c) => c.rule);
}

/**
 * Plans every action against compiled rules: pure, and the dry run's engine as well.
 * `policyVersion`: the organisation's version the rules were read at (`ArgusSnapshot`), for the receipts.
 */
export function planActions(
  rules: readonly CompiledRule[],
  actions: readonly ActionToClassify[],
  now: number,
  policyVersion: number,
): ActionPlan[] {
  return actions.map((action) => {
    const evaluation = evaluateAction(rules, action, now);
    const plan: ActionPlan = {
      actionName: action.actionName,
      allowedDecisions: action.allowedDecisions,
      receipts: evaluation.shadowed.map((rule) => ({
        action: 'classification.shadowed' as const,
        metadata: receipt(rule, action.actionName, false, policyVersion),
      })),
    };
    const rule = evaluation.enforced;
    if (rule === undefined) return plan;
    const outcome = rule.outcome;
    const applied = receipt(rule, action.actionName, true, policyVersion);
    if (outcome.type === 'approve' || outcome.type === 'reject') {
      // Argus never takes a decision the action does not allow: it goes to a person instead.
      if (action.allowedDecisions.includes(outcome.type)) {
        plan.decision = {
          decision: outcome.type,
          message: outcome.type === 'reject' ? outcome.message : null,
          ruleId: rule.id,
        };
      } else {
        applied.enforced = false;
        applied.skipped = 'decision_not_allowed';
      }
    }
    if (outcome.type === 'route') plan.route = { ruleId: rule.id, outcome };
    plan.receipts.push({ action: 'classification.applied', metadata: applied });
    return plan;
  });
}

/**
 * Argus's pipeline for `POST /api/interrupts`: the organisation's rules from the cache (memory,
 * no query), evaluated per action request. Any failure — the rules cannot be loaded, a rule
 * throws — fails closed: nothing is decided automatically, and the caller records why.
 */
@Injectable()
export class ArgusPipeline {
  private readonly log = new Logger('ArgusPipeline');

  constructor(
    private readonly cache: RuleCache,
    private readonly matches: ClassificationMatchesRepository,
    private readonly rules: ClassificationRulesRepository,
    private readonly external: ExternalClassifier,
  ) {}

  async plan(
    organisationId: string,
    actions: readonly ActionToClassify[],
    interrupt: InterruptToClassify,
    now = Date.now(),
  ): Promise<ArgusPlan> {
    try {
      const { rules, classifier, policyVersion } = await this.cache.snapshot(organisationId, now);
      if (classifier === null) {
        if (rules.length === 0) return { ok: true, actions: [], risk: null, labels: [] };
        const planned = planActions(rules, actions, now, policyVersion);
        // No rule matched any action: nothing to record, decide or re-read (an empty plan, as
        // for an organisation without rules — the POST costs what it costs without them).
        const matched = planned.some((a) => a.receipts.length > 0);
        return { ok: true, actions: matched ? planned : [], risk: null, labels: [] };
      }
      const target = classifierTarget(classifier, now);
      const results = await Promise.all(
        actions.map((a) =>
          this.external.classify(target, {
            title: interrupt.title,
            description: interrupt.description,
            sessionId: a.sessionId,
            key: { id: a.keyId, name: interrupt.keyName },
            action: { name: a.actionName, args: a.args, allowedDecisions: a.allowedDecisions },
          }),
        ),
      );
      const facts = actions.map((a, i) => {
        const r = results[i];
        return r.ok ? { ...a, risk: r.risk, labels: r.labels } : a;
      });
      const answered = results.flatMap((r) => (r.ok ? [r] : []));
      return {
        ok: true,
        actions: withClassifier(planActions(rules, facts, now, policyVersion), results),
        risk: highestRisk(answered.map((r) => r.risk)),
        labels: [...new Set(answered.flatMap((r) => r.labels))],
      };
    } catch (error) {
      return {
        ok: false,
        reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown error',
      };
    }
  }

  /** Records what matched a new interrupt's actions (the rules' statistics), in its transaction. */
  async record(
    tx: Queryable,
    organisationId: string,
    interruptId: string,
    actions: readonly ActionPlan[],
  ): Promise<void> {
    await this.matches.insertMany(tx, organisationId, interruptId, matchesOf(actions));
  }

  /**
   * A person decided an action, in the decision's transaction: the shadow rules that matched it
   * record whether they would have agreed (their opinions join the decision's audit entry), and a
   * rejection pauses the "Always allow this" rules that would have approved the action (each
   * audited `classification.rule_paused` by the member). After the commit, call `rulesChanged`
   * when `paused` is not empty.
   */
  async personDecided(
    tx: Queryable,
    organisationId: string,
    decided: PersonDecision,
  ): Promise<{ opinions: ShadowOpinion[]; paused: string[] }> {
    const opinions = await this.matches.recordPersonDecision(
      tx,
      organisationId,
      decided.interruptId,
      decided.actionName,
      decided.decision,
      decided.actor.name,
    );
    if (decided.decision !== 'reject') return { opinions, paused: [] };
    let candidates: StoredRule[];
    try {
      candidates = rulesToPause(await this.cache.rules(organisationId), decided, Date.now());
    } catch (error) {
      // The rules cannot be read: the rejection stands; nothing is paused (and argus itself fails closed).
      this.log.warn(`rules to pause not read: ${error instanceof Error ? error.message : error}`);
      return { opinions, paused: [] };
    }
    const paused: string[] = [];
    for (const rule of candidates) {
      const after = await this.rules.pause(tx, organisationId, rule.id, {
        interruptId: decided.interruptId,
        actionName: decided.actionName,
        byName: decided.actor.name,
      });
      if (after === undefined) continue;
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.rule_paused',
        actor: decided.actor,
        target: { type: 'classification', id: rule.id, name: after.name },
        metadata: {
          interruptId: decided.interruptId,
          actionName: decided.actionName,
          from: 'enforce',
          to: 'off',
        },
        ipAddress: decided.ip,
      });
      paused.push(rule.id);
    }
    return { opinions, paused };
  }

  /** After a commit that changed rules: every instance drops the organisation's compiled rules. */
  rulesChanged(organisationId: string): Promise<void> {
    return this.cache.changed(organisationId);
  }
}

const DECIDING = new Set(['approve', 'reject']);

/** One row per receipt: a shadow rule "decides" when its approve or reject is allowed by the action; an enforced one when it was applied. */
export function matchesOf(actions: readonly ActionPlan[]): MatchToRecord[] {
  return actions.flatMap((plan) =>
    plan.receipts.map(({ metadata: r }) => ({
      ruleId: r.ruleIds[0],
      actionName: plan.actionName,
      mode: r.mode,
      outcome: r.outcome,
      decides:
        DECIDING.has(r.outcome) &&
        (r.mode === 'enforce' ? r.enforced : plan.allowedDecisions.includes(r.outcome as Decision)),
    })),
  );
}

type Receipt = ActionPlan['receipts'][number];

/**
 * An action's plan without its automatic decision: the enforced approve/reject receipt says it
 * was not applied and why (`skipped`, with `extra`); every other receipt gains `others`.
 */
function undecided(
  plan: ActionPlan,
  skipped: 'circuit_breaker' | 'classifier_failed',
  extra: Partial<ClassificationReceipt> = {},
  others: Partial<ClassificationReceipt> = {},
): ActionPlan {
  const decided = (r: Receipt) =>
    r.action === 'classification.applied' &&
    (r.metadata.outcome === 'approve' || r.metadata.outcome === 'reject') &&
    r.metadata.enforced;
  return {
    ...plan,
    decision: undefined,
    receipts: plan.receipts.map((r) => ({
      ...r,
      metadata: decided(r)
        ? { ...r.metadata, enforced: false, skipped, ...extra }
        : { ...r.metadata, ...others },
    })),
  };
}

/** Drops automatic decisions (the breaker tripped): receipts say the rejection was not applied. */
export function withoutDecisions(actions: ActionPlan[]): ActionPlan[] {
  return actions.map((plan) => undecided(plan, 'circuit_breaker'));
}

/**
 * The classifier's answers joined to the plans (SPEC §8d): an answer's risk, labels and time join
 * every receipt of its action; where it did not answer (time out, error, malformed answer) argus
 * fails closed — the action's decision is dropped, so a person decides it, and the enforced
 * receipt says `skipped: "classifier_failed"` with the reason.
 */
export function withClassifier(
  plans: ActionPlan[],
  results: readonly ClassifierResult[],
): ActionPlan[] {
  return plans.map((plan, i) => {
    const r = results[i];
    if (r.ok) {
      const joined = { risk: r.risk, labels: r.labels, classifierMs: r.ms };
      return {
        ...plan,
        classifier: r,
        receipts: plan.receipts.map((x) => ({ ...x, metadata: { ...x.metadata, ...joined } })),
      };
    }
    return {
      ...undecided(
        plan,
        'classifier_failed',
        { error: r.error, classifierMs: r.ms },
        { classifierMs: r.ms },
      ),
      classifier: r,
    };
  });
}
