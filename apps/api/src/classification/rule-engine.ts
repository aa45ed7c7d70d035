/**
 * Argus's rules (SPEC §8d), pure: the shapes, their validation with exact texts, compilation
 * to matchers, and evaluation of one action request against an organisation's rules. No
 * framework and no database: the pipeline and the dry run call it with rules already loaded.
 *
 * Ordering (stated and tested): rules run by `priority` (lower first), then by creation time,
 * then by id. `off` and expired rules are skipped. A matching `shadow` rule is recorded (what
 * it would have done) and evaluation goes on; the first matching `enforce` rule decides and
 * ends evaluation — `require_human` included, which stops later rules from deciding.
 */
import { checkPolicy, compilePolicy, evaluatePolicy, PolicyValidationError } from './cedar-policy';

export const RULE_MODES = ['off', 'shadow', 'enforce'] as const;
export type RuleMode = (typeof RULE_MODES)[number];
export const ARG_OPS = ['eq', 'ne', 'in', 'lt', 'lte', 'gt', 'gte', 'matches'] as const;
export type ArgOp = (typeof ARG_OPS)[number];
export const RISKS = ['low', 'medium', 'high', 'critical'] as const;
export type Risk = (typeof RISKS)[number];
/** The priorities a route may give the interrupt (the interrupt's own, SPEC §8e). */
export const ROUTE_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const OUTCOME_TYPES = ['approve', 'reject', 'route', 'require_human', 'policy'] as const;
export type OutcomeType = (typeof OUTCOME_TYPES)[number];

/** Rules an organisation may hold (409 beyond). */
export const MAX_RULES_PER_ORGANISATION = 5_000;

export const RULE_LIMITS = {
  name: 100,
  names: 50,
  nameLength: 200,
  predicates: 20,
  pathLength: 200,
  inValues: 100,
  stringValue: 1000,
  words: 20,
  wordLength: 50,
  labels: 20,
  message: 1000,
  priority: 1_000_000,
  requiredApprovals: 5,
} as const;

/** An argument path: keys separated by dots, read inside the action's `args`. */
export const ARG_PATH_PATTERN = '^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$';
const ARG_PATH = new RegExp(ARG_PATH_PATTERN);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ArgPredicate =
  | { path: string; op: 'eq' | 'ne'; value: unknown }
  | { path: string; op: 'in'; value: unknown[] }
  | { path: string; op: 'lt' | 'lte' | 'gt' | 'gte'; value: number }
  | { path: string; op: 'matches'; value: string };

export interface RuleMatch {
  /** Action names, exact or globs (`*` any run of characters, `?` one). */
  actions?: string[];
  /** The API key that opened the interrupt. */
  keyIds?: string[];
  /** The session the interrupt is linked to. */
  sessionIds?: string[];
  /** Words the title must contain (each, case- and accent-insensitively). */
  titleWords?: string[];
  args?: ArgPredicate[];
  /** The external classifier's risk (SPEC §8d): matches nothing for an action it did not answer for. */
  risk?: Risk[];
  /** The external classifier's labels (any of them); nothing for an action it did not answer for. */
  labels?: string[];
}

export type RuleOutcome =
  | { type: 'approve' }
  | { type: 'reject'; message: string }
  | {
      type: 'route';
      assignTo?: { memberId: string } | { teamId: string };
      escalate?: boolean;
      /** The action needs this many members' approvals (SPEC §8e several approvers): 2 … 5. */
      requiredApprovals?: number;
      /** Only this team's members may decide the action (SPEC §8e approverTeam). */
      approverTeam?: { teamId: string };
      /** The interrupt's priority (SPEC §8e), replacing its agent's. */
      priority?: (typeof ROUTE_PRIORITIES)[number];
    }
  | { type: 'require_human' }
  /** Cedar policies decide (cedar-policy.ts): permit approves, forbid rejects, neither goes on. */
  | { type: 'policy'; policy: string };

/** What a rule did to one action: a policy rule's outcome is what its policies decided. */
export type AppliedOutcome = Exclude<RuleOutcome, { type: 'policy' }>;

export interface RuleDefinition {
  name: string;
  mode: RuleMode;
  priority: number;
  match: RuleMatch;
  outcome: RuleOutcome;
  expiresAt: string | null;
}

/** Where a rule came from: the editor or API, "Always allow this" on an interrupt, a suggestion. */
export const RULE_ORIGINS = ['member', 'always_allow', 'suggestion'] as const;
export type RuleOrigin = (typeof RULE_ORIGINS)[number];

/** Why a rule was switched off without its editor: a person rejected an action it would approve. */
export interface RulePause {
  at: string;
  interruptId: string;
  actionName: string;
  /** The member who rejected, by name at the time. */
  byName: string;
}

export interface StoredRule extends RuleDefinition {
  id: string;
  createdAt: string;
  /** Absent: `member` (drafts of the dry run). */
  origin?: RuleOrigin;
}

/** A rule as it applied to one action: a policy rule with its policies' outcome and ids. */
export interface AppliedRule extends Omit<StoredRule, 'outcome'> {
  outcome: AppliedOutcome;
  /** The Cedar policies that determined it (policy rules). */
  policyIds?: string[];
  /** Set when the policies could not be evaluated: the action goes to a person. */
  policyError?: string;
}

/** A refusal of a rule body: `path: what is wrong`. */
export class RuleValidationError extends Error {}

const fail = (path: string, what: string): never => {
  throw new RuleValidationError(`${path}: ${what}`);
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function onlyKeys(value: Record<string, unknown>, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) fail(`${path}.${key}`, 'is not a known field');
}

function stringList(
  value: unknown,
  path: string,
  max: number,
  maxLength: number,
  check?: (s: string, p: string) => void,
): string[] {
  if (!Array.isArray(value)) return fail(path, 'must be an array of strings');
  if (value.length < 1) fail(path, 'must list at least one value');
  if (value.length > max) fail(path, `must list at most ${max} values`);
  value.forEach((s, i) => {
    if (typeof s !== 'string' || s.length < 1 || s.length > maxLength)
      fail(`${path}[${i}]`, `must be a string of 1 to ${maxLength} characters`);
    check?.(s as string, `${path}[${i}]`);
  });
  if (new Set(value).size !== value.length) fail(path, 'must not repeat a value');
  return value as string[];
}

const uuidCheck = (s: string, p: string) => {
  if (!UUID.test(s)) fail(p, 'must be a UUID');
};

function jsonValueSize(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

export function parsePredicate(value: unknown, path: string): ArgPredicate {
  if (!isObject(value)) return fail(path, 'must be an object {path, op, value}');
  onlyKeys(value, path, ['path', 'op', 'value']);
  const p = value.path;
  if (typeof p !== 'string' || p.length > RULE_LIMITS.pathLength || !ARG_PATH.test(p)) {
    fail(
      `${path}.path`,
      'must be a dotted path into the arguments, such as amount or customer.tier',
    );
  }
  const op = value.op;
  if (typeof op !== 'string' || !(ARG_OPS as readonly string[]).includes(op))
    fail(`${path}.op`, `must be one of ${ARG_OPS.join(', ')}`);
  if (!('value' in value)) fail(`${path}.value`, 'is required');
  const v = value.value;
  switch (op as ArgOp) {
    case 'eq':
    case 'ne':
      if (jsonValueSize(v) > RULE_LIMITS.stringValue)
        fail(`${path}.value`, `must be at most ${RULE_LIMITS.stringValue} characters of JSON`);
      return { path: p as string, op: op as 'eq' | 'ne', value: v };
    case 'in':
      if (!Array.isArray(v) || v.length < 1 || v.length > RULE_LIMITS.inValues)
        fail(`${path}.value`, `must be an array of 1 to ${RULE_LIMITS.inValues} values`);
      if (jsonValueSize(v) > RULE_LIMITS.stringValue * 10)
        fail(`${path}.value`, `must be at most ${RULE_LIMITS.stringValue * 10} characters of JSON`);
      return { path: p as string, op: 'in', value: v as unknown[] };
    case 'matches':
      if (typeof v !== 'string' || v.length < 1 || v.length > RULE_LIMITS.stringValue)
        fail(`${path}.value`, `must be a glob of 1 to ${RULE_LIMITS.stringValue} characters`);
      return { path: p as string, op: 'matches', value: v as string };
    default:
      if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${path}.value`, 'must be a number');
      return { path: p as string, op: op as 'lt', value: v as number };
  }
}

export function parseRuleMatch(value: unknown, path = 'match'): RuleMatch {
  if (!isObject(value)) return fail(path, 'must be an object');
  onlyKeys(value, path, [
    'actions',
    'keyIds',
    'sessionIds',
    'titleWords',
    'args',
    'risk',
    'labels',
  ]);
  const match: RuleMatch = {};
  if (value.actions !== undefined)
    match.actions = stringList(
      value.actions,
      `${path}.actions`,
      RULE_LIMITS.names,
      RULE_LIMITS.nameLength,
    );
  if (value.keyIds !== undefined)
    match.keyIds = stringList(value.keyIds, `${path}.keyIds`, RULE_LIMITS.names, 36, uuidCheck).map(
      (s) => s.toLowerCase(),
    );
  if (value.sessionIds !== undefined) {
    match.sessionIds = stringList(
      value.sessionIds,
      `${path}.sessionIds`,
      RULE_LIMITS.names,
      36,
      uuidCheck,
    ).map((s) => s.toLowerCase());
  }
  if (value.titleWords !== undefined) {
    match.titleWords = stringList(
      value.titleWords,
      `${path}.titleWords`,
      RULE_LIMITS.words,
      RULE_LIMITS.wordLength,
      (s, p) => {
        if (!/^\S+$/.test(s)) fail(p, 'must be one word');
      },
    );
  }
  if (value.args !== undefined) {
    if (
      !Array.isArray(value.args) ||
      value.args.length < 1 ||
      value.args.length > RULE_LIMITS.predicates
    ) {
      fail(`${path}.args`, `must be an array of 1 to ${RULE_LIMITS.predicates} predicates`);
    }
    match.args = (value.args as unknown[]).map((a, i) => parsePredicate(a, `${path}.args[${i}]`));
  }
  if (value.risk !== undefined) {
    match.risk = stringList(value.risk, `${path}.risk`, RISKS.length, 10, (s, p) => {
      if (!(RISKS as readonly string[]).includes(s)) fail(p, `must be one of ${RISKS.join(', ')}`);
    }) as Risk[];
  }
  if (value.labels !== undefined)
    match.labels = stringList(
      value.labels,
      `${path}.labels`,
      RULE_LIMITS.labels,
      RULE_LIMITS.wordLength,
    );
  return match;
}

export function parseRuleOutcome(value: unknown, path = 'outcome'): RuleOutcome {
  if (!isObject(value)) return fail(path, 'must be an object with a type');
  const type = value.type;
  if (typeof type !== 'string' || !(OUTCOME_TYPES as readonly string[]).includes(type))
    fail(`${path}.type`, `must be one of ${OUTCOME_TYPES.join(', ')}`);
  switch (type as OutcomeType) {
    case 'approve':
      onlyKeys(value, path, ['type']);
      return { type: 'approve' };
    case 'require_human':
      onlyKeys(value, path, ['type']);
      return { type: 'require_human' };
    case 'reject': {
      onlyKeys(value, path, ['type', 'message']);
      const m = value.message;
      if (typeof m !== 'string' || m.trim().length < 1 || m.length > RULE_LIMITS.message) {
        fail(
          `${path}.message`,
          `is required with reject: the message the agent receives, 1 to ${RULE_LIMITS.message} characters`,
        );
      }
      return { type: 'reject', message: m as string };
    }
    case 'policy': {
      onlyKeys(value, path, ['type', 'policy']);
      const text = value.policy;
      if (typeof text !== 'string' || text.trim().length < 1)
        fail(`${path}.policy`, 'is required with policy: the Cedar policies, as text');
      try {
        checkPolicy(text as string, `${path}.policy`);
      } catch (error) {
        if (error instanceof PolicyValidationError) throw new RuleValidationError(error.message);
        throw error;
      }
      return { type: 'policy', policy: text as string };
    }
    case 'route': {
      onlyKeys(value, path, [
        'type',
        'assignTo',
        'escalate',
        'requiredApprovals',
        'approverTeam',
        'priority',
      ]);
      const outcome: Extract<RuleOutcome, { type: 'route' }> = { type: 'route' };
      if (value.assignTo !== undefined) {
        const a = value.assignTo;
        if (!isObject(a)) return fail(`${path}.assignTo`, 'must be {memberId} or {teamId}');
        const keys = Object.keys(a);
        if (keys.length !== 1 || (keys[0] !== 'memberId' && keys[0] !== 'teamId'))
          fail(`${path}.assignTo`, 'must be {memberId} or {teamId}');
        const id = a[keys[0]];
        if (typeof id !== 'string' || !UUID.test(id))
          fail(`${path}.assignTo.${keys[0]}`, 'must be a UUID');
        outcome.assignTo =
          keys[0] === 'memberId'
            ? { memberId: (id as string).toLowerCase() }
            : { teamId: (id as string).toLowerCase() };
      }
      if (value.escalate !== undefined) {
        if (typeof value.escalate !== 'boolean') fail(`${path}.escalate`, 'must be a boolean');
        outcome.escalate = value.escalate as boolean;
      }
      if (value.requiredApprovals !== undefined) {
        const r = value.requiredApprovals;
        if (
          typeof r !== 'number' ||
          !Number.isInteger(r) ||
          r < 2 ||
          r > RULE_LIMITS.requiredApprovals
        )
          fail(
            `${path}.requiredApprovals`,
            `must be an integer from 2 to ${RULE_LIMITS.requiredApprovals}`,
          );
        outcome.requiredApprovals = r as number;
      }
      if (value.approverTeam !== undefined) {
        const t = value.approverTeam;
        if (!isObject(t) || Object.keys(t).length !== 1 || !('teamId' in t))
          return fail(`${path}.approverTeam`, 'must be {teamId}');
        if (typeof t.teamId !== 'string' || !UUID.test(t.teamId))
          fail(`${path}.approverTeam.teamId`, 'must be a UUID');
        outcome.approverTeam = { teamId: (t.teamId as string).toLowerCase() };
      }
      if (value.priority !== undefined) {
        const p = value.priority;
        if (typeof p !== 'string' || !(ROUTE_PRIORITIES as readonly string[]).includes(p))
          fail(`${path}.priority`, `must be one of ${ROUTE_PRIORITIES.join(', ')}`);
        outcome.priority = p as (typeof ROUTE_PRIORITIES)[number];
      }
      return outcome;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Matching

/** What one action request is matched on. */
export interface ActionFacts {
  actionName: string;
  args: Record<string, unknown>;
  keyId: string;
  sessionId: string | null;
  /** The title's folded words (libs/audit searchWords). */
  titleWords: readonly string[];
  /** The title as written (Cedar policies read it); absent: empty. */
  title?: string;
  risk?: Risk;
  labels?: readonly string[];
}

/** A glob (`*`, `?`; everything else literal) as an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

/** What `readPath` answers for an argument the action does not have. */
const MISSING: unique symbol = Symbol('missing');

/**
 * The argument at a path split once, when the rule is compiled: evaluation tests every candidate
 * rule of every action, so it allocates nothing (no split array, no result object per test).
 */
function readPath(args: Record<string, unknown>, keys: readonly string[]): unknown {
  let current: unknown = args;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!isObject(current) || !Object.prototype.hasOwnProperty.call(current, key)) return MISSING;
    current = current[key];
  }
  return current;
}

/** JSON equality: same type and value; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return (
      a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]))
    );
  const ak = Object.keys(a as object);
  const bk = Object.keys(b as object);
  return (
    ak.length === bk.length &&
    ak.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as never)[k], (b as never)[k]),
    )
  );
}

type Test = (facts: ActionFacts) => boolean;

function predicateTest(p: ArgPredicate): Test {
  const keys = p.path.split('.');
  switch (p.op) {
    case 'eq':
      return (f) => {
        const v = readPath(f.args, keys);
        return v !== MISSING && jsonEqual(v, p.value);
      };
    case 'ne':
      // A missing argument is not equal to anything: `ne` holds.
      return (f) => {
        const v = readPath(f.args, keys);
        return v === MISSING || !jsonEqual(v, p.value);
      };
    case 'in':
      return (f) => {
        const v = readPath(f.args, keys);
        return v !== MISSING && p.value.some((x) => jsonEqual(v, x));
      };
    case 'matches': {
      const re = globToRegExp(p.value);
      return (f) => {
        const v = readPath(f.args, keys);
        return typeof v === 'string' && re.test(v);
      };
    }
    default: {
      const bound = p.value;
      // Only numbers compare: a string "50" is not 50 (an agent cannot slip past a limit by quoting it).
      switch (p.op) {
        case 'lt':
          return (f) => {
            const v = readPath(f.args, keys);
            return typeof v === 'number' && v < bound;
          };
        case 'lte':
          return (f) => {
            const v = readPath(f.args, keys);
            return typeof v === 'number' && v <= bound;
          };
        case 'gt':
          return (f) => {
            const v = readPath(f.args, keys);
            return typeof v === 'number' && v > bound;
          };
        case 'gte':
          return (f) => {
            const v = readPath(f.args, keys);
            return typeof v === 'number' && v >= bound;
          };
      }
    }
  }
}

/** Folds a title word as the title search does (lower case, no accents). */
export function foldWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export interface CompiledRule {
  rule: StoredRule;
  expiresAtMs: number | null;
  /** Whether the rule applies to the action (a policy rule: its policies decide something). */
  test: Test;
  /** The rule as it applies to the action, or null when it does not. */
  apply: (facts: ActionFacts) => AppliedRule | null;
  /**
   * Whether the rule's action names and keys admit this action name from this key: what does not
   * change from one request to the next, so evaluation settles it once per (key, action name).
   */
  admits: (actionName: string, keyId: string) => boolean;
  /** `apply` for an action the rule `admits`: only the request's own facts are tested. */
  applyAdmitted: (facts: ActionFacts) => AppliedRule | null;
}

export function compileRule(rule: StoredRule): CompiledRule {
  const m = rule.match;
  const exact = m.actions === undefined ? null : new Set(m.actions.filter((a) => !/[*?]/.test(a)));
  const globs = (m.actions ?? []).filter((a) => /[*?]/.test(a)).map(globToRegExp);
  const keys = m.keyIds === undefined ? null : new Set(m.keyIds);
  const admits = (actionName: string, keyId: string): boolean => {
    if (keys !== null && !keys.has(keyId)) return false;
    if (exact === null || exact.has(actionName)) return true;
    for (let i = 0; i < globs.length; i++) if (globs[i].test(actionName)) return true;
    return false;
  };
  // The request's own facts: tested for every action the rule admits.
  const tests: Test[] = [];
  if (m.sessionIds !== undefined) {
    const sessions = new Set(m.sessionIds);
    tests.push((f) => f.sessionId !== null && sessions.has(f.sessionId));
  }
  if (m.titleWords !== undefined) {
    const words = m.titleWords.map(foldWord);
    tests.push((f) => words.every((w) => f.titleWords.includes(w)));
  }
  if (m.risk !== undefined) {
    const risks = new Set<string>(m.risk);
    tests.push((f) => f.risk !== undefined && risks.has(f.risk));
  }
  if (m.labels !== undefined) {
    const labels = m.labels;
    tests.push((f) => f.labels !== undefined && labels.some((l) => f.labels?.includes(l)));
  }
  for (const p of m.args ?? []) tests.push(predicateTest(p));
  const rest: Test = (f) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i](f)) return false;
    return true;
  };
  const matches: Test = (f) => admits(f.actionName, f.keyId) && rest(f);
  const expiresAtMs = rule.expiresAt === null ? null : Date.parse(rule.expiresAt);
  const outcome = rule.outcome;
  if (outcome.type !== 'policy') {
    const applied = rule as AppliedRule;
    return {
      rule,
      expiresAtMs,
      test: matches,
      apply: (f) => (matches(f) ? applied : null),
      admits,
      applyAdmitted: (f) => (rest(f) ? applied : null),
    };
  }
  // The set is loaded into the engine under the rule's id and a digest of its text.
  const policy = compilePolicy(`${rule.id}:${digest(outcome.policy)}`, outcome.policy);
  const applyAdmitted = (f: ActionFacts): AppliedRule | null => {
    if (!rest(f)) return null;
    const result = evaluatePolicy(policy, {
      actionName: f.actionName,
      title: f.title ?? '',
      args: f.args,
      keyId: f.keyId,
      sessionId: f.sessionId,
      risk: f.risk,
      labels: f.labels,
    });
    switch (result.decision) {
      case null:
        return null;
      case 'error':
        // Fail closed: the action goes to a person, and later rules do not decide it.
        return { ...rule, outcome: { type: 'require_human' }, policyError: result.error };
      case 'approve':
        return { ...rule, outcome: { type: 'approve' }, policyIds: result.policyIds };
      case 'reject':
        return {
          ...rule,
          outcome: { type: 'reject', message: result.message },
          policyIds: result.policyIds,
        };
    }
  };
  const apply = (f: ActionFacts): AppliedRule | null =>
    admits(f.actionName, f.keyId) ? applyAdmitted(f) : null;
  return { rule, expiresAtMs, test: (f) => apply(f) !== null, apply, admits, applyAdmitted };
}

/** A short digest of a text (FNV-1a), to name a version of a policy set in the engine. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/** The evaluation order: priority, then creation, then id. */
export function sortRules(rules: CompiledRule[]): CompiledRule[] {
  return [...rules].sort(
    (a, b) =>
      a.rule.priority - b.rule.priority ||
      a.rule.createdAt.localeCompare(b.rule.createdAt) ||
      a.rule.id.localeCompare(b.rule.id),
  );
}

export interface ActionEvaluation {
  /** The enforce-mode rule that decides this action, if one matched. */
  enforced?: AppliedRule;
  /** Shadow-mode rules that matched before it (or all that matched, when none enforced). */
  shadowed: AppliedRule[];
}

/**
 * Which rules can match an action name, so an evaluation tests those and not all: a rule naming
 * exact actions is listed under each name, one naming globs under each glob's first character
 * (a glob starting with a wildcard, or a rule naming no actions, is listed for every action).
 * Then by key: a rule naming keys is a candidate only for those keys (rules are most often
 * scoped to an agent's key — "Always allow this" and suggestions always are), one naming none
 * for every key. Positions are in evaluation order; built once per sorted array (the cache keeps
 * the array).
 */
interface RuleIndex {
  exact: Map<string, number[]>;
  byFirst: Map<string, number[]>;
  always: number[];
  /** Candidates per action name already merged (names repeat across requests); bounded. */
  merged: Map<string, readonly number[]>;
  /** The rules naming keys, by key; the rules naming none. */
  byKey: Map<string, Set<number>>;
  anyKey: Set<number>;
  /**
   * Per (key, action name): the rules not off whose action names and keys admit it — what stays
   * the same from one request to the next, settled once (globs included), so an evaluation
   * tests only each rule's argument, session, title, risk and label conditions. Bounded.
   */
  admitted: Map<string, Admitted>;
  /** Positions held in `admitted` and `merged`, against ADMITTED_POSITIONS. */
  held: number;
}

const MERGED_NAMES = 1024;
/** At most this many positions are kept in an index's per-name lists (a few hundred KiB). */
const ADMITTED_POSITIONS = 100_000;

const INDEXES = new WeakMap<readonly CompiledRule[], RuleIndex>();

function indexOf(rules: readonly CompiledRule[]): RuleIndex {
  const known = INDEXES.get(rules);
  if (known !== undefined) return known;
  const index: RuleIndex = {
    exact: new Map(),
    byFirst: new Map(),
    always: [],
    merged: new Map(),
    byKey: new Map(),
    anyKey: new Set(),
    admitted: new Map(),
    held: 0,
  };
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  };
  rules.forEach((compiled, i) => {
    const keyIds = compiled.rule.match.keyIds;
    if (keyIds === undefined) index.anyKey.add(i);
    else
      for (const k of keyIds) {
        const set = index.byKey.get(k);
        if (set === undefined) index.byKey.set(k, new Set([i]));
        else set.add(i);
      }
    const actions = compiled.rule.match.actions;
    if (actions === undefined || actions.some((a) => a[0] === '*' || a[0] === '?')) {
      index.always.push(i);
      return;
    }
    for (const a of actions) {
      if (/[*?]/.test(a)) add(index.byFirst, a[0], i);
      else add(index.exact, a, i);
    }
  });
  INDEXES.set(rules, index);
  return index;
}

/** Keeps a per-name entry within the index's bounds (both maps start over when full). */
function keep<T>(
  index: RuleIndex,
  map: Map<string, T>,
  name: string,
  entry: T,
  positions: number,
): void {
  if (map.size >= MERGED_NAMES || index.held + positions > ADMITTED_POSITIONS) {
    index.merged.clear();
    index.admitted.clear();
    index.held = 0;
  }
  map.set(name, entry);
  index.held += positions;
}

/**
 * Rules whose action names and keys admit one (key, action name), indexed by their argument
 * conditions, so a request's arguments pick the rules to test without touching the others (the
 * counting method of publish/subscribe matching): each `eq` / `in` on JSON scalars and each
 * numeric comparison is listed under its path — equalities by value, comparisons sorted by
 * bound — and a request counts, per rule, the listed conditions its arguments meet. A rule is
 * tested only when it meets all of them; a rule with none listed (no argument condition, or only
 * `ne`, `matches`, equality with objects) is tested every time. Tested, a rule's conditions are
 * all checked again: the index only leaves out rules that cannot match.
 */
interface Admitted {
  /** Rules with no listed condition, in evaluation order. */
  unlisted: readonly number[];
  paths: ListedPath[];
  /** Per rule position: how many of its conditions are listed (0: none). */
  listed: Uint8Array;
  /** One evaluation's count per position; all zero between evaluations (they are synchronous). */
  met: Uint8Array;
  positions: number;
}

interface ListedPath {
  keys: readonly string[];
  /** `eq` / `in` on scalars, per value (Map keys compare as JSON equality does for scalars). */
  equal: Map<unknown, number[]>;
  /** Numeric comparisons, each sorted by bound. */
  lt: Bounds;
  lte: Bounds;
  gt: Bounds;
  gte: Bounds;
}

interface Bounds {
  bounds: number[];
  positions: number[];
}

const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

/** The argument conditions the index can list: equality with scalars, numeric comparisons. */
function listable(p: ArgPredicate): boolean {
  switch (p.op) {
    case 'eq':
      return isScalar(p.value);
    case 'in':
      return p.value.every(isScalar);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return true;
    default:
      return false;
  }
}

type Comparison = 'lt' | 'lte' | 'gt' | 'gte';
const COMPARISONS: readonly Comparison[] = ['lt', 'lte', 'gt', 'gte'];

function admittedOf(rules: readonly CompiledRule[], positions: readonly number[]): Admitted {
  const unlisted: number[] = [];
  const listed = new Uint8Array(rules.length);
  const byPath = new Map<string, { path: ListedPath; pairs: Record<Comparison, number[][]> }>();
  for (const i of positions) {
    const conditions = (rules[i].rule.match.args ?? []).filter(listable);
    if (conditions.length === 0) {
      unlisted.push(i);
      continue;
    }
    listed[i] = conditions.length;
    for (const c of conditions) {
      let entry = byPath.get(c.path);
      if (entry === undefined) {
        const none = (): Bounds => ({ bounds: [], positions: [] });
        entry = {
          path: {
            keys: c.path.split('.'),
            equal: new Map(),
            lt: none(),
            lte: none(),
            gt: none(),
            gte: none(),
          },
          pairs: { lt: [], lte: [], gt: [], gte: [] },
        };
        byPath.set(c.path, entry);
      }
      if (c.op === 'eq' || c.op === 'in') {
        for (const v of c.op === 'eq' ? [c.value] : new Set(c.value as unknown[])) {
          const list = entry.path.equal.get(v);
          if (list === undefined) entry.path.equal.set(v, [i]);
          else list.push(i);
        }
      } else entry.pairs[c.op as Comparison].push([c.value as number, i]);
    }
  }
  const paths = [...byPath.values()].map(({ path, pairs }) => {
    for (const op of COMPARISONS) {
      const sorted = pairs[op].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      path[op] = { bounds: sorted.map((x) => x[0]), positions: sorted.map((x) => x[1]) };
    }
    return path;
  });
  return {
    unlisted,
    paths,
    listed,
    met: new Uint8Array(rules.length),
    positions: positions.length,
  };
}

/** The first index whose bound is above `v` (`strict`) or at least `v`. */
function firstAbove(bounds: readonly number[], v: number, strict: boolean): number {
  let lo = 0;
  let hi = bounds.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? bounds[mid] > v : bounds[mid] >= v) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Counts a met condition of the rule at `i`; `all` gains it when it has met every listed one. */
function meet(a: Admitted, i: number, touched: number[], all: number[]): void {
  if (a.met[i] === 0) touched.push(i);
  if (++a.met[i] === a.listed[i]) all.push(i);
}

/** The positions, in evaluation order, of the rules to test against these arguments. */
function toTest(a: Admitted, args: Record<string, unknown>): readonly number[] {
  if (a.paths.length === 0) return a.unlisted;
  const touched: number[] = [];
  const all: number[] = [];
  for (const path of a.paths) {
    const v = readPath(args, path.keys);
    if (v === MISSING) continue;
    if (isScalar(v)) {
      const equal = path.equal.get(v);
      if (equal !== undefined) for (const i of equal) meet(a, i, touched, all);
    }
    if (typeof v !== 'number') continue;
    // v < bound holds where bound > v; v ≤ bound where bound ≥ v; v > bound and v ≥ bound below those.
    const { lt, lte, gt, gte } = path;
    for (let k = firstAbove(lt.bounds, v, true); k < lt.positions.length; k++)
      meet(a, lt.positions[k], touched, all);
    for (let k = firstAbove(lte.bounds, v, false); k < lte.positions.length; k++)
      meet(a, lte.positions[k], touched, all);
    for (let k = 0, end = firstAbove(gt.bounds, v, false); k < end; k++)
      meet(a, gt.positions[k], touched, all);
    for (let k = 0, end = firstAbove(gte.bounds, v, true); k < end; k++)
      meet(a, gte.positions[k], touched, all);
  }
  for (const i of touched) a.met[i] = 0;
  if (all.length === 0) return a.unlisted;
  return [...a.unlisted, ...all].sort((x, y) => x - y);
}

/**
 * The rules not off whose action names and keys admit this action from this key, indexed by
 * their argument conditions.
 */
function candidates(rules: readonly CompiledRule[], actionName: string, keyId: string): Admitted {
  const index = indexOf(rules);
  const name = `${keyId}\u0000${actionName}`;
  const known = index.admitted.get(name);
  if (known !== undefined) return known;
  const forKey = index.byKey.get(keyId);
  const admitted = admittedOf(
    rules,
    actionCandidates(index, actionName).filter(
      (i) =>
        (index.anyKey.has(i) || forKey?.has(i) === true) &&
        rules[i].rule.mode !== 'off' &&
        rules[i].admits(actionName, keyId),
    ),
  );
  keep(index, index.admitted, name, admitted, admitted.positions);
  return admitted;
}

/** The positions of the rules that can match this action name, in evaluation order. */
function actionCandidates(index: RuleIndex, actionName: string): readonly number[] {
  const lists = [
    index.exact.get(actionName),
    index.byFirst.get(actionName[0] ?? ''),
    index.always,
  ].filter((l): l is number[] => l !== undefined && l.length > 0);
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0];
  const known = index.merged.get(actionName);
  if (known !== undefined) return known;
  const sorted = lists.flat().sort((a, b) => a - b);
  const merged = sorted.filter((x, i) => i === 0 || sorted[i - 1] !== x);
  keep(index, index.merged, actionName, merged, merged.length);
  return merged;
}

/** One action against an organisation's rules, already compiled and sorted (see the ordering above). */
export function evaluateAction(
  rules: readonly CompiledRule[],
  facts: ActionFacts,
  now: number,
): ActionEvaluation {
  const shadowed: AppliedRule[] = [];
  for (const i of toTest(candidates(rules, facts.actionName, facts.keyId), facts.args)) {
    const compiled = rules[i];
    const { rule } = compiled;
    if (compiled.expiresAtMs !== null && compiled.expiresAtMs <= now) continue;
    const applied = compiled.applyAdmitted(facts);
    if (applied === null) continue;
    if (rule.mode === 'shadow') {
      shadowed.push(applied);
      continue;
    }
    return { enforced: applied, shadowed };
  }
  return { shadowed };
}
