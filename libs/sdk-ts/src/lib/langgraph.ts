// The LangGraph human-in-the-loop bridge: plain data in, plain data out, no LangGraph import.
// LangGraph's HITL middleware interrupts with `{action_requests, review_configs}` and resumes
// with `{decisions: [...]}`, one decision per action request, in the same order.
import { InterlockError } from './errors';
import type { ActionRequest, Decision, DecisionType, Interrupt, InterruptCreateParams } from './types';

export interface LangGraphActionRequest {
  name: string;
  args?: Record<string, unknown>;
  description?: string | null;
}

export interface LangGraphReviewConfig {
  action_name: string;
  allowed_decisions?: string[];
  [field: string]: unknown;
}

/** The value LangGraph's `interrupt()` raises for a human review. */
export interface LangGraphHITLRequest {
  action_requests: LangGraphActionRequest[];
  review_configs?: LangGraphReviewConfig[];
}

export type LangGraphDecision =
  | { type: 'approve' }
  | { type: 'edit'; edited_action: { name: string; args: Record<string, unknown> } }
  | { type: 'reject'; message?: string }
  | { type: 'respond'; message: string };

/** The value to resume the graph with (`Command({ resume })`). */
export interface LangGraphResume {
  decisions: LangGraphDecision[];
}

/** Everything of a create call but the actions: `title` (default made from the action names), `externalId`… */
export type InterruptFromLangGraphOptions = Partial<Omit<InterruptCreateParams, 'actionRequests'>>;

const DECISION_TYPES: readonly DecisionType[] = ['approve', 'edit', 'reject', 'respond'];
const MAX_TITLE_LENGTH = 200;

/**
 * Where the bridge keeps LangGraph's own action names in the interrupt's metadata, when it had to
 * make them unique (the service keys decisions by action name; LangGraph may ask about two calls
 * of the same tool at once).
 */
export const LANGGRAPH_METADATA_KEY = 'langgraph';

/**
 * The create-interrupt parameters for a LangGraph HITL request. Each action keeps its name, args
 * and description; its review config's `allowed_decisions` become `allowedDecisions`. A name
 * repeated in one request becomes `name #2`, `name #3`… (the originals are kept in
 * `metadata.langgraph.actionNames`). Without a `title` one is made from the action names.
 */
export function interruptFromLangGraph(
  request: LangGraphHITLRequest,
  options: InterruptFromLangGraphOptions = {},
): InterruptCreateParams {
  if (!Array.isArray(request?.action_requests) || request.action_requests.length === 0) {
    throw new InterlockError('A LangGraph HITL request needs at least one entry in action_requests.');
  }
  const configs = new Map<string, LangGraphReviewConfig>();
  for (const config of request.review_configs ?? []) configs.set(config.action_name, config);

  const originalNames = request.action_requests.map((action) => action.name);
  const used = new Set<string>();
  const actionRequests = request.action_requests.map((action): ActionRequest => {
    let name = action.name;
    for (let n = 2; used.has(name); n++) name = `${action.name} #${n}`;
    used.add(name);
    const mapped: ActionRequest = { name, args: action.args ?? {} };
    if (typeof action.description === 'string') mapped.description = action.description;
    const allowed = configs.get(action.name)?.allowed_decisions;
    if (allowed !== undefined) {
      const unknown = allowed.filter((d) => !(DECISION_TYPES as readonly string[]).includes(d));
      if (unknown.length > 0) {
        throw new InterlockError(`Unknown decision type(s) for ${action.name}: ${unknown.join(', ')}.`);
      }
      mapped.allowedDecisions = allowed as DecisionType[];
    }
    return mapped;
  });

  const { title, metadata, ...rest } = options;
  const renamed = actionRequests.some((action, i) => action.name !== originalNames[i]);
  const params: InterruptCreateParams = { ...rest, title: title ?? defaultTitle(originalNames), actionRequests };
  if (renamed) params.metadata = { ...metadata, [LANGGRAPH_METADATA_KEY]: { actionNames: originalNames } };
  else if (metadata !== undefined) params.metadata = metadata;
  return params;
}

/**
 * The resume value for LangGraph from an answered interrupt: one decision per action request, in
 * the original order, under LangGraph's own action names. Throws when an action has no decision.
 */
export function toLangGraphResume(
  interrupt: Pick<Interrupt, 'id' | 'actionRequests' | 'decisions'> & Partial<Pick<Interrupt, 'metadata'>>,
): LangGraphResume {
  const byName = new Map<string, Decision[]>();
  for (const decision of interrupt.decisions ?? []) {
    const queue = byName.get(decision.actionName) ?? [];
    queue.push(decision);
    byName.set(decision.actionName, queue);
  }
  const names = langGraphNames(interrupt);
  const decisions = interrupt.actionRequests.map((action, i): LangGraphDecision => {
    const decision = byName.get(action.name)?.shift();
    if (decision === undefined) {
      throw new InterlockError(
        `Interrupt ${interrupt.id} has no decision for action ${action.name} yet: wait for it to be answered.`,
      );
    }
    return toLangGraphDecision(decision, names[i]);
  });
  return { decisions };
}

/** LangGraph's names of the actions: kept in metadata when the bridge renamed any. */
function langGraphNames(interrupt: Pick<Interrupt, 'actionRequests'> & Partial<Pick<Interrupt, 'metadata'>>): string[] {
  const kept = (interrupt.metadata?.[LANGGRAPH_METADATA_KEY] as { actionNames?: unknown } | undefined)?.actionNames;
  const own = interrupt.actionRequests.map((action) => action.name);
  if (!Array.isArray(kept) || kept.length !== own.length || !kept.every((n) => typeof n === 'string')) return own;
  return kept as string[];
}

function toLangGraphDecision(decision: Decision, name: string): LangGraphDecision {
  switch (decision.decision) {
    case 'approve':
      return { type: 'approve' };
    case 'edit':
      return { type: 'edit', edited_action: { name, args: decision.editedArgs ?? {} } };
    case 'reject':
      return decision.message === null || decision.message === undefined
        ? { type: 'reject' }
        : { type: 'reject', message: decision.message };
    case 'respond':
      return { type: 'respond', message: decision.message ?? '' };
    default:
      throw new InterlockError(`Unknown decision type: ${String((decision as { decision: unknown }).decision)}.`);
  }
}

function defaultTitle(names: readonly string[]): string {
  const title = names.length === 1 ? `Review ${names[0]}` : `Review ${names.length} actions: ${names.join(', ')}`;
  return title.length <= MAX_TITLE_LENGTH ? title : `${title.slice(0, MAX_TITLE_LENGTH - 1)}…`;
}
