import { Injectable } from '@nestjs/common';
import { searchWords } from '@interlock/audit';
import { DECISIONS, DomainError } from '@interlock/domain';
import { InterruptsService } from '../interrupts/interrupts.service';
import {
  type ActionPlan,
  type ActionToClassify,
  planActions,
  withClassifier,
} from './argus-pipeline';
import { classifierTarget } from './classifier-source';
import { type ClassifierResult, ExternalClassifier } from './external-classifier';
import type { DryRunActionResult, DryRunInterruptResult } from './dto/dry-run.dto';
import type { DryRunClassificationCommand } from './dry-run-classification.command';
import { RuleCache } from './rule-cache';
import {
  type CompiledRule,
  compileRule,
  parseRuleMatch,
  parseRuleOutcome,
  RuleValidationError,
  sortRules,
} from './rule-engine';

/** With `askClassifier`, at most this many interrupts (each action is one request to the endpoint). */
export const DRY_RUN_MAX_ASKED_INTERRUPTS = 20;

/** What the classifier said of one action in a dry run, or why it said nothing. */
type Asked = ClassifierResult | 'none' | 'not_asked';

function result(
  plan: ActionPlan | undefined,
  actionName: string,
  asked: Asked,
): DryRunActionResult {
  const applied = plan?.receipts.find((r) => r.action === 'classification.applied')?.metadata;
  const shadowRuleIds = (plan?.receipts ?? [])
    .filter((r) => r.action === 'classification.shadowed')
    .flatMap((r) => r.metadata.ruleIds);
  const decides = applied !== undefined && applied.enforced;
  return {
    actionName,
    result: decides ? applied.outcome : 'person',
    ruleId: decides ? applied.ruleIds[0] : null,
    message: plan?.decision?.message ?? null,
    shadowRuleIds,
    skipped: applied?.skipped ?? null,
    classifier: typeof asked === 'string' ? asked : asked.ok ? 'answered' : 'failed',
    risk: typeof asked !== 'string' && asked.ok ? asked.risk : null,
    labels: typeof asked !== 'string' && asked.ok ? asked.labels : [],
    classifierError: typeof asked !== 'string' && !asked.ok ? asked.error : null,
  };
}

/**
 * `POST /api/classification/dry-run` (SPEC §8d): the pipeline's planning, on a sample or the
 * latest interrupts, with the saved rules or drafts — and nothing written.
 */
@Injectable()
export class ClassificationDryRunService {
  constructor(
    private readonly cache: RuleCache,
    private readonly interrupts: InterruptsService,
    private readonly external: ExternalClassifier,
  ) {}

  async run(
    command: DryRunClassificationCommand,
    now = Date.now(),
  ): Promise<DryRunInterruptResult[]> {
    const { organisationId } = command;
    const ask = command.askClassifier === true;
    if (
      ask &&
      command.lastInterrupts !== undefined &&
      command.lastInterrupts > DRY_RUN_MAX_ASKED_INTERRUPTS
    )
      throw new DomainError(
        'VALIDATION_FAILED',
        `lastInterrupts: at most ${DRY_RUN_MAX_ASKED_INTERRUPTS} with askClassifier (the classifier is asked once per action)`,
      );
    const drafts = command.rules === undefined ? undefined : this.drafts(command);
    const snapshot = await this.cache.snapshot(organisationId, now);
    const rules = drafts ?? snapshot.rules;
    const classifier = snapshot.classifier;
    const cases: {
      interruptId: string | null;
      title: string;
      description: string | null;
      key: { id: string; name: string } | null;
      actions: ActionToClassify[];
    }[] = [];
    if (command.sample !== undefined) {
      const title = command.sample.title ?? '';
      cases.push({
        interruptId: null,
        title,
        description: null,
        key: null,
        actions: command.sample.actionRequests.map((a) => ({
          actionName: a.name,
          args: a.args ?? {},
          keyId: command.sample?.keyId?.toLowerCase() ?? '',
          sessionId: command.sample?.sessionId?.toLowerCase() ?? null,
          titleWords: searchWords(title),
          title,
          allowedDecisions: a.allowedDecisions ?? [...DECISIONS],
        })),
      });
    }
    if (command.lastInterrupts !== undefined) {
      for (const i of await this.interrupts.recentForClassification(
        organisationId,
        command.lastInterrupts,
      )) {
        cases.push({
          interruptId: i.id,
          title: i.title,
          description: i.description,
          key: i.keyId === null ? null : { id: i.keyId, name: i.keyName ?? '' },
          actions: i.actionRequests.map((a) => ({
            actionName: a.name,
            args: a.args,
            keyId: i.keyId ?? '',
            sessionId: i.sessionId,
            titleWords: searchWords(i.title),
            title: i.title,
            allowedDecisions: a.allowedDecisions,
          })),
        });
      }
    }
    if (classifier === null || !ask) {
      const asked: Asked = classifier === null ? 'none' : 'not_asked';
      return cases.map((c) => {
        const plans = planActions(rules, c.actions, now, snapshot.policyVersion);
        return {
          interruptId: c.interruptId,
          title: c.title,
          actions: c.actions.map((a, i) => result(plans[i], a.actionName, asked)),
        };
      });
    }
    // Asked as POST /api/interrupts asks it (signed, the SSRF guard, fail closed), every action
    // at once; nothing is written (no classified/failed entry).
    const target = classifierTarget(classifier, now);
    return Promise.all(
      cases.map(async (c) => {
        const results = await Promise.all(
          c.actions.map((a) =>
            this.external.classify(target, {
              title: c.title,
              description: c.description,
              sessionId: a.sessionId,
              key: c.key,
              action: { name: a.actionName, args: a.args, allowedDecisions: a.allowedDecisions },
            }),
          ),
        );
        const facts = c.actions.map((a, i) => {
          const r = results[i];
          return r.ok ? { ...a, risk: r.risk, labels: r.labels } : a;
        });
        const plans = withClassifier(
          planActions(rules, facts, now, snapshot.policyVersion),
          results,
        );
        return {
          interruptId: c.interruptId,
          title: c.title,
          actions: c.actions.map((a, i) => result(plans[i], a.actionName, results[i])),
        };
      }),
    );
  }

  private drafts(command: DryRunClassificationCommand): readonly CompiledRule[] {
    return sortRules(
      (command.rules ?? []).map((r, i) => {
        try {
          return compileRule({
            id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
            name: r.name,
            mode: r.mode,
            priority: r.priority ?? 100,
            match: parseRuleMatch(r.match, `rules[${i}].match`),
            outcome: parseRuleOutcome(r.outcome, `rules[${i}].outcome`),
            expiresAt: r.expiresAt ?? null,
            createdAt: new Date(0).toISOString(),
          });
        } catch (error) {
          if (error instanceof RuleValidationError)
            throw new DomainError('VALIDATION_FAILED', error.message);
          throw error;
        }
      }),
    );
  }
}
