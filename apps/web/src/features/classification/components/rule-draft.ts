import type {
  ClassificationRuleMode,
  ClassificationRuleResponse,
  CreateClassificationRuleDto,
  RuleArgPredicate,
  RuleMatch,
  RuleOutcome,
  RouteOutcome,
} from '@interlock/api-client';

export const ARG_OPS = ['eq', 'ne', 'in', 'lt', 'lte', 'gt', 'gte', 'matches'] as const;
export type ArgOp = (typeof ARG_OPS)[number];
export const OP_LABELS: Record<ArgOp, string> = {
  eq: 'equals',
  ne: 'does not equal',
  in: 'is one of',
  lt: '<',
  lte: '≤',
  gt: '>',
  gte: '≥',
  matches: 'matches glob',
};

/** An argument condition as typed in the editor: the value is text until it becomes a rule. */
export interface ArgRow {
  path: string;
  op: ArgOp;
  value: string;
}

/** The rule editor's fields. */
export interface RuleForm {
  name: string;
  mode: ClassificationRuleMode;
  priority: number;
  actions: string[];
  keyIds: string[];
  titleWords: string[];
  args: ArgRow[];
  outcome: 'approve' | 'reject' | 'route' | 'require_human' | 'policy';
  /** The Cedar policies of a `policy` outcome. */
  policy: string;
  sessionIds: string[];
  risk: RuleRisk[];
  labels: string[];
  message: string;
  escalate: boolean;
  /** A route's assignee: `member:<id>`, `team:<id>`, or empty (nobody). */
  assignTo: string;
  /** A route's quorum: the approvals the action needs, 1 (none set) to 5. */
  requiredApprovals: number;
  /** A route's approver team id, or empty (any member who may decide). */
  approverTeamId: string;
  /** yyyy-mm-dd, or empty: never. */
  expiresOn: string;
}

export type RuleRisk = NonNullable<RuleMatch['risk']>[number];
export const RISKS: RuleRisk[] = ['low', 'medium', 'high', 'critical'];

/** A route's assignee as the editor's select value. */
export function assigneeValue(to: RouteOutcome['assignTo']): string {
  if (to === undefined || to === null) return '';
  return 'teamId' in to ? `team:${to.teamId}` : `member:${to.memberId}`;
}

function assigneeOf(value: string): RouteOutcome['assignTo'] | undefined {
  if (value.startsWith('member:')) return { memberId: value.slice('member:'.length) };
  if (value.startsWith('team:')) return { teamId: value.slice('team:'.length) };
  return undefined;
}

export const EMPTY_FORM: RuleForm = {
  name: '',
  mode: 'shadow',
  priority: 100,
  actions: [],
  keyIds: [],
  titleWords: [],
  args: [],
  sessionIds: [],
  risk: [],
  labels: [],
  outcome: 'approve',
  policy: '',
  message: '',
  escalate: false,
  assignTo: '',
  requiredApprovals: 1,
  approverTeamId: '',
  expiresOn: '',
};

/** A value as JSON when it reads as JSON (50, true, "x", [1,2]), else as the text typed. */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function predicate(row: ArgRow): RuleArgPredicate | string {
  const path = row.path.trim();
  if (path === '') return 'Every argument condition needs a path, such as amount or customer.tier.';
  const text = row.value.trim();
  switch (row.op) {
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n))
        return `${path} ${OP_LABELS[row.op]}: the value must be a number.`;
      return { path, op: row.op, value: n };
    }
    case 'in': {
      const parsed = jsonOrText(text);
      const values = Array.isArray(parsed)
        ? parsed
        : text.split(',').map((v) => jsonOrText(v.trim()));
      if (text === '' || values.length === 0)
        return `${path} is one of: list values, separated by commas.`;
      return { path, op: 'in', value: values };
    }
    case 'matches':
      if (text === '') return `${path} matches: give a glob, such as *@example.com.`;
      return { path, op: 'matches', value: text };
    default:
      return { path, op: row.op, value: jsonOrText(text) } as RuleArgPredicate;
  }
}

/** The form as a rule body, or what is missing. */
export function draftOf(
  form: RuleForm,
): { ok: true; draft: CreateClassificationRuleDto } | { ok: false; problem: string } {
  const match: RuleMatch = {};
  if (form.actions.length > 0) match.actions = form.actions;
  if (form.keyIds.length > 0) match.keyIds = form.keyIds;
  if (form.sessionIds.length > 0) match.sessionIds = form.sessionIds;
  if (form.titleWords.length > 0) match.titleWords = form.titleWords;
  if (form.risk.length > 0) match.risk = form.risk;
  if (form.labels.length > 0) match.labels = form.labels;
  const args: RuleArgPredicate[] = [];
  for (const row of form.args) {
    const p = predicate(row);
    if (typeof p === 'string') return { ok: false, problem: p };
    args.push(p);
  }
  if (args.length > 0) match.args = args;
  let outcome: RuleOutcome;
  if (form.outcome === 'reject') {
    if (form.message.trim() === '')
      return { ok: false, problem: 'A rejection needs the message the agent receives.' };
    outcome = { type: 'reject', message: form.message.trim() };
  } else if (form.outcome === 'policy') {
    if (form.policy.trim() === '')
      return { ok: false, problem: 'Write the Cedar policies that decide (permit, forbid).' };
    outcome = { type: 'policy', policy: form.policy };
  } else if (form.outcome === 'route') {
    const assignTo = assigneeOf(form.assignTo);
    outcome = {
      type: 'route',
      ...(assignTo === undefined ? {} : { assignTo }),
      ...(form.escalate ? { escalate: true } : {}),
      ...(form.requiredApprovals > 1 ? { requiredApprovals: form.requiredApprovals } : {}),
      ...(form.approverTeamId === '' ? {} : { approverTeam: { teamId: form.approverTeamId } }),
    };
  } else {
    outcome = { type: form.outcome };
  }
  const name = form.name.trim() === '' ? 'Draft rule' : form.name.trim();
  const expiresAt =
    form.expiresOn === '' ? null : new Date(`${form.expiresOn}T23:59:59.999Z`).toISOString();
  return {
    ok: true,
    draft: { name, mode: form.mode, priority: form.priority, match, outcome, expiresAt },
  };
}

function valueText(p: RuleArgPredicate): string {
  if (p.op === 'in') return (p.value as unknown[]).map((v) => JSON.stringify(v)).join(', ');
  if (p.op === 'matches') return p.value as string;
  return JSON.stringify(p.value);
}

/** A saved rule in the editor's fields. */
export function formOf(rule: ClassificationRuleResponse): RuleForm {
  const o = rule.outcome;
  return {
    name: rule.name,
    mode: rule.mode,
    priority: rule.priority,
    actions: rule.match.actions ?? [],
    keyIds: rule.match.keyIds ?? [],
    titleWords: rule.match.titleWords ?? [],
    sessionIds: rule.match.sessionIds ?? [],
    risk: rule.match.risk ?? [],
    labels: rule.match.labels ?? [],
    args: (rule.match.args ?? []).map((p) => ({
      path: p.path,
      op: p.op as ArgOp,
      value: valueText(p),
    })),
    outcome: o.type,
    message: o.type === 'reject' ? o.message : '',
    policy: o.type === 'policy' ? o.policy : '',
    escalate: o.type === 'route' && o.escalate === true,
    assignTo: o.type === 'route' ? assigneeValue(o.assignTo) : '',
    requiredApprovals: (o.type === 'route' ? o.requiredApprovals : undefined) ?? 1,
    approverTeamId: (o.type === 'route' ? o.approverTeam?.teamId : undefined) ?? '',
    expiresOn: rule.expiresAt === null ? '' : rule.expiresAt.slice(0, 10),
  };
}
