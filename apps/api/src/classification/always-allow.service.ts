import { Injectable } from '@nestjs/common';
import { searchWords } from '@interlock/audit';
import { DomainError } from '@interlock/domain';
import { InterruptsService } from '../interrupts/interrupts.service';
import { ClassificationRulesService } from './classification-rules.service';
import type { RuleRecord } from './classification-rules.repository';
import { ALWAYS_ALLOW_DEFAULT_DAYS, type AlwaysAllowCommand } from './always-allow.command';
import {
  type ArgPredicate,
  compileRule,
  parsePredicate,
  RULE_LIMITS,
  type RuleDefinition,
  RuleValidationError,
} from './rule-engine';

/** "Always allow this" rules run after the organisation's own rules at the default priority. */
export const ALWAYS_ALLOW_PRIORITY = 1000;
const DAY_MS = 86_400_000;
/** An argument a rule can name: one key of the path syntax (no dots). */
export const ARG_NAME = /^[A-Za-z0-9_$-]+$/;

const invalid = (text: string) => new DomainError('VALIDATION_FAILED', text);

/** The conditions "Always allow this" writes by default: each argument equal to its value here. */
export function defaultConditions(args: Record<string, unknown>): ArgPredicate[] {
  const names = Object.keys(args);
  if (names.length > RULE_LIMITS.predicates) {
    throw invalid(
      `args: this action has ${names.length} arguments, more than the ${RULE_LIMITS.predicates} conditions a rule holds; list the conditions to keep`,
    );
  }
  for (const name of names) {
    if (!ARG_NAME.test(name) || name.length > RULE_LIMITS.pathLength)
      throw invalid(
        `args: argument ${JSON.stringify(name)} cannot be named in a rule; list the conditions to keep`,
      );
  }
  return names.map((path) => ({ path, op: 'eq', value: args[path] }));
}

/**
 * "Always allow this" (SPEC §8d): from an action a person is looking at, a narrow rule — the key
 * that opened the interrupt, the action's exact name, argument conditions that hold for this very
 * action — enforced, approving, expiring (30 days by default). A person's later rejection of an
 * action it matches pauses it (ArgusPipeline.personDecided).
 */
@Injectable()
export class AlwaysAllowService {
  constructor(
    private readonly interrupts: InterruptsService,
    private readonly rules: ClassificationRulesService,
  ) {}

  async create(command: AlwaysAllowCommand, now = Date.now()): Promise<RuleRecord> {
    const { organisationId, actor, ip } = command;
    const interrupt = await this.interrupts.forClassification(organisationId, command.interruptId);
    const action = interrupt.actionRequests.find((a) => a.name === command.actionName);
    if (action === undefined)
      throw new DomainError(
        'CONFLICT',
        "actionName must name one of this interrupt's action requests.",
      );
    if (!action.allowedDecisions.includes('approve'))
      throw new DomainError(
        'CONFLICT',
        `Action ${action.name} does not allow approve, so no rule can approve it.`,
      );
    if (/[*?]/.test(action.name))
      throw new DomainError(
        'CONFLICT',
        `Action ${action.name} has * or ? in its name, which a rule reads as a glob: write this rule in the editor.`,
      );
    if (interrupt.keyId === null)
      throw new DomainError('CONFLICT', 'The API key that opened this interrupt no longer exists.');
    const conditions =
      command.args === undefined
        ? defaultConditions(action.args)
        : this.chosenConditions(command.args);
    const facts = {
      actionName: action.name,
      args: action.args,
      keyId: interrupt.keyId,
      sessionId: interrupt.sessionId,
      titleWords: searchWords(interrupt.title),
    };
    // Every condition must hold for the action at hand: the rule allows at least this request.
    conditions.forEach((condition, i) => {
      const probe = compileRule({
        id: interrupt.id,
        name: 'probe',
        mode: 'enforce',
        priority: 0,
        match: { args: [condition] },
        outcome: { type: 'approve' },
        expiresAt: null,
        createdAt: new Date(0).toISOString(),
      });
      if (!probe.test(facts))
        throw invalid(
          `args[${i}]: does not hold for this action's arguments, so the rule would not allow this request`,
        );
    });
    const days = command.expiresInDays ?? ALWAYS_ALLOW_DEFAULT_DAYS;
    const definition: RuleDefinition = {
      name: `Always allow ${action.name}`.slice(0, RULE_LIMITS.name),
      mode: 'enforce',
      priority: ALWAYS_ALLOW_PRIORITY,
      match: {
        actions: [action.name],
        keyIds: [interrupt.keyId],
        ...(conditions.length === 0 ? {} : { args: conditions }),
      },
      outcome: { type: 'approve' },
      expiresAt: new Date(now + days * DAY_MS).toISOString(),
    };
    return this.rules.insert(organisationId, actor, definition, ip, {
      origin: { type: 'always_allow', interruptId: interrupt.id, actionName: action.name },
      interruptId: interrupt.id,
    });
  }

  private chosenConditions(args: unknown[]): ArgPredicate[] {
    if (args.length > RULE_LIMITS.predicates)
      throw invalid(`args: must be an array of 0 to ${RULE_LIMITS.predicates} predicates`);
    try {
      return args.map((a, i) => parsePredicate(a, `args[${i}]`));
    } catch (error) {
      if (error instanceof RuleValidationError) throw invalid(error.message);
      throw error;
    }
  }
}
