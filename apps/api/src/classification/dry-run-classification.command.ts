import type { Decision } from '@interlock/domain';
import type { RuleMode } from './rule-engine';

/** One action to classify, as an interrupt would bring it. */
export interface DryRunAction {
  name: string;
  args?: Record<string, unknown>;
  allowedDecisions?: Decision[];
}

/** A rule as drafted (not saved): `match` and `outcome` are checked when the dry run compiles it. */
export interface RuleDraft {
  name: string;
  mode: RuleMode;
  priority?: number;
  match: Record<string, unknown>;
  outcome: Record<string, unknown>;
  expiresAt?: string | null;
}

/**
 * Run argus without writing anything (SPEC §8d): on `sample` (actions as an interrupt would bring
 * them) and/or on the organisation's `lastInterrupts` latest interrupts, with its saved rules or,
 * given `rules`, with these drafts: the input of `ClassificationDryRunService.run`. The REST body
 * (`DryRunDto`) stays at the HTTP edge.
 */
export interface DryRunClassificationCommand {
  organisationId: string;
  sample?: {
    title?: string;
    actionRequests: DryRunAction[];
    keyId?: string;
    sessionId?: string;
  };
  lastInterrupts?: number;
  rules?: RuleDraft[];
  /** Ask the organisation's external classifier about each action, as a new interrupt would. */
  askClassifier?: boolean;
}
