import { Injectable } from '@nestjs/common';
import { searchWords } from '@interlock/audit';
import { DECISIONS, DomainError } from '@interlock/domain';
import { InterruptsService } from '../interrupts/interrupts.service';
import { type ActionPlan, type ActionToClassify, planActions } from './argus-pipeline';
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

function result(plan: ActionPlan | undefined, actionName: string): DryRunActionResult {
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
  ) {}

  async run(
    command: DryRunClassificationCommand,
    now = Date.now(),
  ): Promise<DryRunInterruptResult[]> {
    const { organisationId } = command;
    const rules =
      command.rules === undefined
        ? await this.cache.rules(organisationId, now)
        : this.drafts(command);
    const cases: { interruptId: string | null; title: string; actions: ActionToClassify[] }[] = [];
    if (command.sample !== undefined) {
      const title = command.sample.title ?? '';
      cases.push({
        interruptId: null,
        title,
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
    return cases.map((c) => {
      const plans = planActions(rules, c.actions, now);
      return {
        interruptId: c.interruptId,
        title: c.title,
        actions: c.actions.map((a, i) => result(plans[i], a.actionName)),
      };
    });
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
