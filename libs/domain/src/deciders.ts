/**
 * Who made a decision on an action request (SPEC §5, §8d, §8e): a member, argus (the automatic
 * classifier, by one of the organisation's rules) or the service itself (`system`, e.g. at a
 * deadline). A tagged union on `type`; a member's decision keeps the `{id, name}` it always had.
 */
export const DECIDER_TYPES = ['member', 'argus', 'system'] as const;
export type DeciderType = (typeof DECIDER_TYPES)[number];

/** Why the service itself decided. Open to more reasons (clients treat unknown ones as opaque). */
export const SYSTEM_DECISION_REASONS = ['timeout'] as const;
export type SystemDecisionReason = (typeof SYSTEM_DECISION_REASONS)[number];

export interface MemberDecider {
  type: 'member';
  /** The member's user id. */
  id: string;
  /** The member's name at the time of the decision. */
  name: string;
}

export interface ArgusDecider {
  type: 'argus';
  /** The classification rule that decided. */
  ruleId: string;
  name: 'argus';
}

export interface SystemDecider {
  type: 'system';
  reason: SystemDecisionReason;
  name: 'system';
}

export type Decider = MemberDecider | ArgusDecider | SystemDecider;

/** The decider as stored beside a decision (one column per field of any variant). */
export interface StoredDecider {
  decidedByType: DeciderType;
  decidedById: string | null;
  decidedByName: string;
  decidedByRuleId: string | null;
  decidedByReason: string | null;
}

/** A decider's columns. */
export function storeDecider(decider: Decider): StoredDecider {
  switch (decider.type) {
    case 'member':
      return {
        decidedByType: 'member',
        decidedById: decider.id,
        decidedByName: decider.name,
        decidedByRuleId: null,
        decidedByReason: null,
      };
    case 'argus':
      return {
        decidedByType: 'argus',
        decidedById: null,
        decidedByName: 'argus',
        decidedByRuleId: decider.ruleId,
        decidedByReason: null,
      };
    case 'system':
      return {
        decidedByType: 'system',
        decidedById: null,
        decidedByName: 'system',
        decidedByRuleId: null,
        decidedByReason: decider.reason,
      };
  }
}

/** The decider a decision's columns hold (fixed key order: the record's bytes depend on it). */
export function readDecider(stored: StoredDecider): Decider {
  switch (stored.decidedByType) {
    case 'argus':
      return { type: 'argus', ruleId: stored.decidedByRuleId as string, name: 'argus' };
    case 'system':
      return {
        type: 'system',
        reason: stored.decidedByReason as SystemDecisionReason,
        name: 'system',
      };
    default:
      return { type: 'member', id: stored.decidedById as string, name: stored.decidedByName };
  }
}
