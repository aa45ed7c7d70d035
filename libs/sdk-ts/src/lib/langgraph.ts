// The LangGraph human-in-the-loop bridge: plain data in, plain data out, no LangGraph import.
//
// It reads every shape of review request the current packages raise with `interrupt()`:
//   - langchain's `humanInTheLoopMiddleware` (JS): `{actionRequests, reviewConfigs:[{actionName,
//     allowedDecisions}]}`, resumed with `{decisions:[{type:'approve'} | {type:'edit',
//     editedAction:{name,args}} | {type:'reject', message?}]}` (JS has no `respond`);
//   - langchain's `HumanInTheLoopMiddleware` (Python), batched: `{action_requests, review_configs}`,
//     resumed with `{decisions:[… edited_action …, {type:'respond', message}]}`;
//   - the same in `interrupt_mode="per_call"`: one `{type:'tool_approval', tool_call_id, name, args,
//     description}` per tool call, each resumed with one decision (keyed by interrupt id);
//   - the Agent Inbox `HumanInterrupt` (`{action_request:{action,args}, config:{allow_*},
//     description}`, alone or in a list), resumed with `HumanResponse` (`accept|ignore|response|edit`);
//   - a payload of ours (`interlockPayload(…)` passed to a plain `interrupt()`), resumed with the
//     members' decisions.
// It turns them into one or more interrupt create parameters (20 actions at most each, long
// descriptions shortened, the args kept whole), records in each interrupt's metadata how to map
// the answers back, and merges the answered interrupts into exactly the resume value the package
// expects.
import { verifyDecisions } from './action-digest';
import { InterlockError } from './errors';
import type {
  ActionRequest,
  Decision,
  DecisionType,
  Interrupt,
  InterruptCreateParams,
} from './types';

// ---------------------------------------------------------------------------------------------
// The shapes the packages use.

/** One action of a HITL middleware request (both languages). */
export interface LangGraphActionRequest {
  name: string;
  args?: Record<string, unknown>;
  description?: string | null;
}

/** A review config of Python's `HumanInTheLoopMiddleware` (snake_case). */
export interface LangGraphReviewConfig {
  action_name: string;
  allowed_decisions?: string[];
  [field: string]: unknown;
}

/** Python's `HumanInTheLoopMiddleware` request (batched mode): `HITLRequest`. */
export interface LangGraphHITLRequest {
  action_requests: LangGraphActionRequest[];
  review_configs?: LangGraphReviewConfig[];
}

/** langchain JS `humanInTheLoopMiddleware` request: `HITLRequest` (camelCase). */
export interface LangChainHITLRequest {
  actionRequests: LangGraphActionRequest[];
  reviewConfigs?: { actionName: string; allowedDecisions?: string[]; [field: string]: unknown }[];
}

/** Python's `HumanInTheLoopMiddleware(interrupt_mode="per_call")`: `ToolApprovalRequest`. */
export interface ToolApprovalRequest {
  type: 'tool_approval';
  tool_call_id: string;
  name: string;
  args: Record<string, unknown>;
  description?: string;
}

/** The Agent Inbox request (`langchain.agents.interrupt.HumanInterrupt`, formerly langgraph.prebuilt). */
export interface HumanInterrupt {
  action_request: { action: string; args: Record<string, unknown> };
  config: {
    allow_ignore: boolean;
    allow_respond: boolean;
    allow_edit: boolean;
    allow_accept: boolean;
  };
  description?: string | null;
}

/** A payload of ours for a plain `interrupt()`: see `interlockPayload`. */
export interface InterlockPayload {
  type: 'interlock';
  request: InterruptCreateParams;
}

/** A LangGraph `Interrupt` as a run returns it (`result.__interrupt__[i]`). */
export interface LangGraphInterrupt {
  id?: string;
  value?: unknown;
  /** JSON Schema of the answer, when the graph gave one (per-call mode does). */
  response_schema?: unknown;
}

/** Python middleware decisions (snake_case). */
export type LangGraphDecision =
  | { type: 'approve' }
  | { type: 'edit'; edited_action: { name: string; args: Record<string, unknown> } }
  | { type: 'reject'; message?: string }
  | { type: 'respond'; message: string };

/** langchain JS middleware decisions (camelCase; no `respond`). */
export type LangChainDecision =
  | { type: 'approve' }
  | { type: 'edit'; editedAction: { name: string; args: Record<string, unknown> } }
  | { type: 'reject'; message?: string };

/** The Agent Inbox answer. */
export interface HumanResponse {
  type: 'accept' | 'ignore' | 'response' | 'edit';
  args: null | string | { action: string; args: Record<string, unknown> };
}

/** The answer to an `interlockPayload` interrupt: the decisions, in the order of its actions. */
export interface InterlockResume {
  decisions: Decision[];
}

/** The resume value of one LangGraph interrupt. */
export type LangGraphResumeValue =
  | { decisions: LangGraphDecision[] }
  | { decisions: LangChainDecision[] }
  | LangGraphDecision
  | HumanResponse
  | HumanResponse[]
  | InterlockResume;

/**
 * What to resume the graph with (`new Command({ resume })`): the value itself when one LangGraph
 * interrupt was reviewed, else a map from interrupt id to its value.
 */
export type LangGraphResume =
  LangGraphResumeValue | { [interruptId: string]: LangGraphResumeValue };

/** Everything of a create call but the actions: `title` (default made from the action names), `externalId`… */
export type InterruptFromLangGraphOptions = Partial<Omit<InterruptCreateParams, 'actionRequests'>>;

// ---------------------------------------------------------------------------------------------
// Limits of one interrupt (SPEC §10, the DTO) and the metadata the bridge keeps.

/** At most this many action requests per interrupt; larger requests are split. */
export const MAX_ACTIONS_PER_INTERRUPT = 20;
/** An action's description is shortened to this many characters; its args are kept whole. */
export const MAX_DESCRIPTION_LENGTH = 10_000;
const MAX_TITLE_LENGTH = 200;
const MAX_NAME_LENGTH = 200;
/** Interrupt bodies stay well under the service's 1 MiB limit. */
const MAX_PART_BYTES = 768 * 1024;
const SHORTENED = '\n… [shortened by Interlock: the full arguments are in args]';

/** Where the bridge keeps, in each interrupt's metadata, how to map its answers back to LangGraph. */
export const LANGGRAPH_METADATA_KEY = 'langgraph';

const ALL_DECISIONS: readonly DecisionType[] = ['approve', 'edit', 'reject', 'respond'];
/** langchain JS's middleware knows no `respond`, and allows the other three by default. */
const JS_DECISIONS: readonly DecisionType[] = ['approve', 'edit', 'reject'];

type Kind = 'hitl' | 'hitl-js' | 'tool-approval' | 'agent-inbox' | 'interlock';

interface Target {
  /** The LangGraph interrupt id, when known. */
  id: string | null;
  kind: Kind;
  /** How many actions it asked about. */
  size: number;
  /** Agent Inbox: the value was a list (answer with a list). */
  list?: boolean;
}

/** metadata.langgraph of each interrupt the bridge creates. */
interface BridgeMetadata {
  v: 1;
  review: string;
  part: number;
  parts: number;
  targets: Target[];
  /** Per action request of this interrupt: [target index, position in the target, LangGraph's name]. */
  actions: [number, number, string][];
}

interface PendingAction {
  target: number;
  position: number;
  name: string;
  args: Record<string, unknown>;
  description: string | undefined;
  allowedDecisions: DecisionType[] | undefined;
}

// ---------------------------------------------------------------------------------------------
// Reading LangGraph's interrupts.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHumanInterrupt(value: unknown): value is HumanInterrupt {
  return isRecord(value) && isRecord(value['action_request']) && isRecord(value['config']);
}

/** A recognised interrupt value (as opposed to an `Interrupt` object wrapping one). */
function isReviewValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isHumanInterrupt);
  if (!isRecord(value)) return false;
  return (
    'action_requests' in value ||
    'actionRequests' in value ||
    value['type'] === 'tool_approval' ||
    value['type'] === 'interlock' ||
    isHumanInterrupt(value)
  );
}

function isInterruptObject(value: unknown): value is LangGraphInterrupt {
  return isRecord(value) && 'value' in value && !isReviewValue(value);
}

/** The LangGraph interrupts in `source`: a run's result, `result.__interrupt__`, one interrupt, or a bare value. */
function interruptsOf(source: unknown): LangGraphInterrupt[] {
  if (isRecord(source) && '__interrupt__' in source) return interruptsOf(source['__interrupt__']);
  if (Array.isArray(source) && source.length > 0 && source.every(isInterruptObject)) return source;
  if (isInterruptObject(source)) return [source];
  if (isReviewValue(source)) return [{ value: source }];
  throw new InterlockError(
    'Not a LangGraph review request: expected a run result with __interrupt__, its interrupts, or an ' +
      'interrupt value (a HITL request with actionRequests/action_requests, a tool_approval request, ' +
      'an Agent Inbox HumanInterrupt, or an interlockPayload).',
  );
}

function args(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new InterlockError(`The args of ${what} must be an object.`);
  return value;
}

function name(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new InterlockError(`${what} needs a name.`);
  return value;
}

function decisionTypes(allowed: unknown, action: string): DecisionType[] {
  if (!Array.isArray(allowed))
    throw new InterlockError(`The allowed decisions of ${action} must be a list.`);
  const unknown = allowed.filter((d) => !(ALL_DECISIONS as readonly unknown[]).includes(d));
  if (unknown.length > 0)
    throw new InterlockError(`Unknown decision type(s) for ${action}: ${unknown.join(', ')}.`);
  if (allowed.length === 0) throw new InterlockError(`${action} allows no decision.`);
  return [...new Set(allowed as DecisionType[])];
}

/** The decision types a JSON Schema of an answer admits (each branch's `type` const or enum). */
function decisionsInSchema(schema: unknown): DecisionType[] | undefined {
  const found = new Set<DecisionType>();
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (isRecord(node) && isRecord(node['properties']) && isRecord(node['properties']['type'])) {
      const type = node['properties']['type'];
      const values =
        'const' in type ? [type['const']] : Array.isArray(type['enum']) ? type['enum'] : [];
      for (const v of values)
        if ((ALL_DECISIONS as readonly unknown[]).includes(v)) found.add(v as DecisionType);
    }
    for (const child of Object.values(node)) walk(child);
  };
  walk(schema);
  return found.size > 0 ? ALL_DECISIONS.filter((d) => found.has(d)) : undefined;
}

function read(
  interrupt: LangGraphInterrupt,
  index: number,
  targets: Target[],
  actions: PendingAction[],
): void {
  const value = interrupt.value;
  const id = typeof interrupt.id === 'string' && interrupt.id !== '' ? interrupt.id : null;
  const push = (
    kind: Kind,
    items: Omit<PendingAction, 'target' | 'position'>[],
    list?: boolean,
  ): void => {
    if (items.length === 0)
      throw new InterlockError('A LangGraph review request needs at least one action.');
    targets.push(
      list === undefined
        ? { id, kind, size: items.length }
        : { id, kind, size: items.length, list },
    );
    items.forEach((item, position) => actions.push({ ...item, target: index, position }));
  };

  if (isRecord(value) && ('actionRequests' in value || 'action_requests' in value)) {
    const camel = 'actionRequests' in value;
    const requests = camel ? value['actionRequests'] : value['action_requests'];
    const configs = camel ? value['reviewConfigs'] : value['review_configs'];
    if (!Array.isArray(requests) || requests.length === 0) {
      throw new InterlockError(
        `A LangGraph HITL request needs at least one entry in ${camel ? 'actionRequests' : 'action_requests'}.`,
      );
    }
    const allowedByName = new Map<string, unknown>();
    for (const config of Array.isArray(configs) ? configs : []) {
      if (!isRecord(config)) continue;
      const actionName = camel ? config['actionName'] : config['action_name'];
      if (typeof actionName === 'string')
        allowedByName.set(
          actionName,
          camel ? config['allowedDecisions'] : config['allowed_decisions'],
        );
    }
    const items = requests.map((request: unknown, i) => {
      if (!isRecord(request))
        throw new InterlockError(`Action request ${i + 1} must be an object.`);
      const actionName = name(request['name'], `Action request ${i + 1}`);
      const allowed = allowedByName.get(actionName);
      return {
        name: actionName,
        args: args(request['args'], actionName),
        description:
          typeof request['description'] === 'string' ? request['description'] : undefined,
        allowedDecisions:
          allowed !== undefined
            ? decisionTypes(allowed, actionName)
            : camel
              ? [...JS_DECISIONS]
              : undefined,
      };
    });
    if (camel) {
      for (const item of items) {
        if (item.allowedDecisions?.includes('respond')) {
          throw new InterlockError(`langchain JS has no respond decision (action ${item.name}).`);
        }
      }
    }
    push(camel ? 'hitl-js' : 'hitl', items);
    return;
  }
  if (isRecord(value) && value['type'] === 'tool_approval') {
    const toolName = name(value['name'], 'A tool_approval request');
    push('tool-approval', [
      {
        name: toolName,
        args: args(value['args'], toolName),
        description:
          typeof value['description'] === 'string' && value['description'] !== ''
            ? value['description']
            : undefined,
        allowedDecisions: decisionsInSchema(interrupt.response_schema),
      },
    ]);
    return;
  }
  if (isRecord(value) && value['type'] === 'interlock') {
    const request = value['request'];
    if (!isRecord(request) || !Array.isArray(request['actionRequests'])) {
      throw new InterlockError(
        'An interlock payload needs request.actionRequests (use interlockPayload).',
      );
    }
    push(
      'interlock',
      request['actionRequests'].map((action: unknown, i) => {
        if (!isRecord(action))
          throw new InterlockError(`Action request ${i + 1} must be an object.`);
        const actionName = name(action['name'], `Action request ${i + 1}`);
        return {
          name: actionName,
          args: args(action['args'], actionName),
          description:
            typeof action['description'] === 'string' ? action['description'] : undefined,
          allowedDecisions:
            action['allowedDecisions'] === undefined
              ? undefined
              : decisionTypes(action['allowedDecisions'], actionName),
        };
      }),
    );
    return;
  }
  const inbox = Array.isArray(value) ? value : [value];
  if (inbox.length > 0 && inbox.every(isHumanInterrupt)) {
    push(
      'agent-inbox',
      inbox.map((request) => {
        const actionName = name(request.action_request.action, 'An Agent Inbox action_request');
        const { config } = request;
        const allowed: DecisionType[] = [];
        if (config.allow_accept) allowed.push('approve');
        if (config.allow_edit) allowed.push('edit');
        if (config.allow_ignore) allowed.push('reject');
        if (config.allow_respond) allowed.push('respond');
        if (allowed.length === 0)
          throw new InterlockError(`Agent Inbox request ${actionName} allows no answer.`);
        return {
          name: actionName,
          args: args(request.action_request.args, actionName),
          description: typeof request.description === 'string' ? request.description : undefined,
          allowedDecisions: allowed,
        };
      }),
      Array.isArray(value),
    );
    return;
  }
  throw new InterlockError(
    `LangGraph interrupt ${index + 1} is not a review request this bridge knows.`,
  );
}

// ---------------------------------------------------------------------------------------------
// Building the create parameters.

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** `text` cut to `max` UTF-16 units (never inside a surrogate pair). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** A description within the service's limit: shortened, with a note, when longer. */
export function shortenDescription(description: string): string {
  if (description.length <= MAX_DESCRIPTION_LENGTH) return description;
  return cut(description, MAX_DESCRIPTION_LENGTH - SHORTENED.length) + SHORTENED;
}

function fitTitle(title: string): string {
  return title.length <= MAX_TITLE_LENGTH ? title : `${cut(title, MAX_TITLE_LENGTH - 1)}…`;
}

/** The names of a part, each once, with how many times it was asked: `send_email ×2, read_file`. */
function summariseNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, count]) => (count === 1 ? n : `${n} ×${count}`)).join(', ');
}

function defaultTitle(
  names: readonly string[],
  total: number,
  part: number,
  parts: number,
): string {
  if (parts === 1)
    return fitTitle(
      names.length === 1
        ? `Review ${names[0]}`
        : `Review ${names.length} actions: ${summariseNames(names)}`,
    );
  return fitTitle(`Review ${total} actions (${part}/${parts}): ${summariseNames(names)}`);
}

/**
 * The fields a reviewed `interlockPayload` request gives the interrupt besides its actions (title,
 * description, externalId…): used when it is the only interrupt reviewed, under the caller's options.
 */
function payloadDefaults(interrupts: readonly LangGraphInterrupt[]): InterruptFromLangGraphOptions {
  if (interrupts.length !== 1) return {};
  const value = interrupts[0].value;
  if (!isRecord(value) || value['type'] !== 'interlock' || !isRecord(value['request'])) return {};
  const { actionRequests: _actions, ...rest } = value['request'];
  return rest as InterruptFromLangGraphOptions;
}

/** A name for the service: at most 200 characters, unique within its interrupt (`name #2`…). */
function uniqueName(original: string, used: Set<string>): string {
  const base = cut(original, MAX_NAME_LENGTH);
  let candidate = base;
  for (let n = 2; used.has(candidate); n++) {
    const suffix = ` #${n}`;
    candidate = cut(original, MAX_NAME_LENGTH - suffix.length) + suffix;
  }
  used.add(candidate);
  return candidate;
}

/** 64-bit FNV-1a of the text, as 16 hex digits: a stable review id for the same interrupts. */
function fingerprint(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function randomId(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
}

/** Splits the actions into parts: at most 20 actions, and a bounded body, each. */
function split(actions: PendingAction[]): PendingAction[][] {
  const parts: PendingAction[][] = [];
  let current: PendingAction[] = [];
  let bytes = 0;
  for (const action of actions) {
    const size =
      utf8Length(JSON.stringify(action.args)) + utf8Length(action.description ?? '') + 512;
    if (
      current.length > 0 &&
      (current.length === MAX_ACTIONS_PER_INTERRUPT || bytes + size > MAX_PART_BYTES)
    ) {
      parts.push(current);
      current = [];
      bytes = 0;
    }
    current.push(action);
    bytes += size;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}

/**
 * The create-interrupt parameters for LangGraph's review request(s): one interrupt, or several
 * when there are more than 20 actions. `source` is a run's result (`{ __interrupt__ }`), its
 * `__interrupt__` list, one `Interrupt`, or a bare interrupt value. An `interlockPayload` request
 * keeps its own title, description and other fields (the options win over them). Each action
 * keeps its name and args; a description over 10,000 characters is shortened; the allowed
 * decisions come from the request. A name repeated in one interrupt becomes `name #2`…; the metadata (`langgraph`) records
 * how to map the answers back (`toLangGraphResume`).
 */
export function interruptsFromLangGraph(
  source: unknown,
  options: InterruptFromLangGraphOptions = {},
): InterruptCreateParams[] {
  const interrupts = interruptsOf(source);
  const targets: Target[] = [];
  const actions: PendingAction[] = [];
  interrupts.forEach((interrupt, index) => read(interrupt, index, targets, actions));

  const parts = split(actions);
  const ids = targets.map((t) => t.id);
  const review = ids.every((id): id is string => id !== null)
    ? fingerprint(ids.join('\n'))
    : randomId();
  const defaults = payloadDefaults(interrupts);
  const { title, metadata, ...rest } = {
    ...defaults,
    ...definedOnly(options),
    metadata: { ...defaults.metadata, ...options.metadata },
  };
  return parts.map((part, i) => {
    const used = new Set<string>();
    const actionRequests = part.map((action): ActionRequest => {
      const mapped: ActionRequest = { name: uniqueName(action.name, used), args: action.args };
      if (action.description !== undefined)
        mapped.description = shortenDescription(action.description);
      if (action.allowedDecisions !== undefined) mapped.allowedDecisions = action.allowedDecisions;
      return mapped;
    });
    const bridge: BridgeMetadata = {
      v: 1,
      review,
      part: i + 1,
      parts: parts.length,
      targets,
      actions: part.map((a) => [a.target, a.position, a.name]),
    };
    const names = part.map((a) => a.name);
    return {
      ...rest,
      title:
        title === undefined
          ? defaultTitle(names, actions.length, i + 1, parts.length)
          : parts.length === 1
            ? title
            : fitTitle(`${title} (${i + 1}/${parts.length})`),
      actionRequests,
      metadata: { ...metadata, [LANGGRAPH_METADATA_KEY]: bridge },
    };
  });
}

/**
 * The create-interrupt parameters for a LangGraph review request that fits one interrupt (20
 * actions at most); `interruptsFromLangGraph` splits larger ones.
 */
export function interruptFromLangGraph(
  source: unknown,
  options: InterruptFromLangGraphOptions = {},
): InterruptCreateParams {
  const [params, ...more] = interruptsFromLangGraph(source, options);
  if (more.length > 0) {
    throw new InterlockError(
      `This review request needs ${more.length + 1} interrupts (at most ${MAX_ACTIONS_PER_INTERRUPT} actions each): ` +
        'use interruptsFromLangGraph, or client.interrupts.reviewLangGraph.',
    );
  }
  return params;
}

/** The payload of a plain `interrupt()` that asks for an Interlock review (answered with `InterlockResume`). */
export function interlockPayload(request: InterruptCreateParams): InterlockPayload {
  return { type: 'interlock', request };
}

/** The decisions of an `interlockPayload` interrupt's resume value, in the order of its actions. */
export function interlockDecisions(resume: unknown): Decision[] {
  if (
    !isRecord(resume) ||
    !Array.isArray(resume['decisions']) ||
    !resume['decisions'].every(isDecision)
  ) {
    throw new InterlockError(
      'Not the resume value of an interlockPayload interrupt ({ decisions: Decision[] }).',
    );
  }
  return resume['decisions'];
}

function isDecision(value: unknown): value is Decision {
  return (
    isRecord(value) &&
    typeof value['actionName'] === 'string' &&
    typeof value['decision'] === 'string'
  );
}

// ---------------------------------------------------------------------------------------------
// Merging the answers into the resume value.

type Answered = Pick<Interrupt, 'id' | 'actionRequests' | 'decisions'> &
  Partial<Pick<Interrupt, 'metadata'>>;

function bridgeMetadata(interrupt: {
  metadata?: Record<string, unknown> | null;
}): BridgeMetadata | undefined {
  const kept = interrupt.metadata?.[LANGGRAPH_METADATA_KEY];
  if (
    !isRecord(kept) ||
    kept['v'] !== 1 ||
    !Array.isArray(kept['targets']) ||
    !Array.isArray(kept['actions'])
  )
    return undefined;
  return kept as unknown as BridgeMetadata;
}

/** An interrupt made without the bridge's metadata reads as one Python HITL request over its actions. */
function legacyMetadata(interrupt: Answered): BridgeMetadata {
  const kept = interrupt.metadata?.[LANGGRAPH_METADATA_KEY];
  const names = isRecord(kept) && Array.isArray(kept['actionNames']) ? kept['actionNames'] : [];
  const own = interrupt.actionRequests.map((a) => a.name);
  const original =
    names.length === own.length && names.every((n) => typeof n === 'string')
      ? (names as string[])
      : own;
  return {
    v: 1,
    review: interrupt.id,
    part: 1,
    parts: 1,
    targets: [{ id: null, kind: 'hitl', size: own.length }],
    actions: original.map((n, i) => [0, i, n]),
  };
}

function editedAction(
  decision: Decision,
  original: string,
): { name: string; args: Record<string, unknown> } {
  return { name: decision.editedName ?? original, args: decision.editedArgs ?? {} };
}

function resumeItem(
  kind: Kind,
  decision: Decision,
  original: string,
  interruptId: string,
): unknown {
  const type: string = decision.decision;
  const message = decision.message ?? undefined;
  switch (kind) {
    case 'interlock':
      return { ...decision, actionName: original };
    case 'agent-inbox':
      if (type === 'approve') return { type: 'accept', args: null } satisfies HumanResponse;
      if (type === 'reject') return { type: 'ignore', args: null } satisfies HumanResponse;
      if (type === 'respond')
        return { type: 'response', args: message ?? '' } satisfies HumanResponse;
      if (type === 'edit') {
        const edited = editedAction(decision, original);
        return {
          type: 'edit',
          args: { action: edited.name, args: edited.args },
        } satisfies HumanResponse;
      }
      break;
    case 'hitl-js':
      if (type === 'approve') return { type: 'approve' } satisfies LangChainDecision;
      if (type === 'edit')
        return {
          type: 'edit',
          editedAction: editedAction(decision, original),
        } satisfies LangChainDecision;
      if (type === 'reject')
        return (
          message === undefined ? { type: 'reject' } : { type: 'reject', message }
        ) satisfies LangChainDecision;
      if (type === 'respond') {
        throw new InterlockError(
          `Interrupt ${interruptId}: langchain JS has no respond decision (action ${original}).`,
        );
      }
      break;
    case 'hitl':
    case 'tool-approval':
      if (type === 'approve') return { type: 'approve' } satisfies LangGraphDecision;
      if (type === 'edit') {
        const edited = editedAction(decision, original);
        if (kind === 'tool-approval' && edited.name !== original) {
          throw new InterlockError(
            `Interrupt ${interruptId}: action ${original} was renamed to ${edited.name}, but an edit in ` +
              'interrupt_mode="per_call" cannot switch tools (the batched mode can).',
          );
        }
        return { type: 'edit', edited_action: edited } satisfies LangGraphDecision;
      }
      if (type === 'reject')
        return (
          message === undefined ? { type: 'reject' } : { type: 'reject', message }
        ) satisfies LangGraphDecision;
      if (type === 'respond')
        return { type: 'respond', message: message ?? '' } satisfies LangGraphDecision;
      break;
  }
  throw new InterlockError(
    `Interrupt ${interruptId}: unknown decision type ${type} (a newer decision than this SDK knows).`,
  );
}

/**
 * The value to resume LangGraph with, from the answered interrupt(s) the bridge created (all parts
 * of a split request, in any order): exactly what each package expects, under LangGraph's own
 * action names, in the original order; keyed by interrupt id when several LangGraph interrupts
 * were reviewed together.
 *
 * `source` is the review request the graph is still waiting on — what was given to
 * `interruptsFromLangGraph` (a run's result, its `__interrupt__` list, one interrupt or a bare
 * value); after a restart, read it back from the checkpointer (`(await graph.getState(config))
 * .tasks.flatMap((t) => t.interrupts)`). The answers are checked against it before anything is
 * mapped (SPEC §8e): the interrupts must ask about exactly the graph's actions, and every action
 * request and decision must carry the digest of the arguments the graph sent — else
 * `ActionDigestMismatchError` and nothing to resume with. Throws when a part or a decision is
 * missing.
 */
export async function toLangGraphResume(
  answered: Answered | readonly Answered[],
  source: unknown,
): Promise<LangGraphResume> {
  const interrupts: readonly Answered[] = Array.isArray(answered)
    ? answered
    : [answered as Answered];
  if (interrupts.length === 0)
    throw new InterlockError('toLangGraphResume needs the answered interrupt(s).');
  const asked = interruptsFromLangGraph(source);
  const askedMeta = asked.map((params) => bridgeMetadata(params) as BridgeMetadata);
  const kept = interrupts.map((interrupt) => bridgeMetadata(interrupt));
  const parts = interrupts.map((interrupt, i) => ({
    interrupt,
    meta: kept[i] ?? (interrupts.length === 1 ? legacyMetadata(interrupt) : undefined),
  }));
  const first = parts[0].meta;
  if (first === undefined || parts.some((p) => p.meta === undefined)) {
    throw new InterlockError(
      'These interrupts were not made by the LangGraph bridge (no metadata.langgraph).',
    );
  }
  const seen = new Set<number>();
  for (const { meta } of parts) {
    if (meta === undefined || meta.review !== first.review) {
      throw new InterlockError('These interrupts belong to different LangGraph reviews.');
    }
    if (seen.has(meta.part))
      throw new InterlockError(`Part ${meta.part} of the review was given twice.`);
    seen.add(meta.part);
  }
  for (let part = 1; part <= first.parts; part++) {
    if (!seen.has(part))
      throw new InterlockError(
        `Part ${part} of ${first.parts} of this LangGraph review is missing.`,
      );
  }
  // The graph's own request decides what was asked: the review (when its interrupts have ids, the
  // review id is theirs), the parts, each part's actions and their arguments.
  const graphIds = askedMeta[0].targets.every((t) => t.id !== null);
  if (
    first.parts !== asked.length ||
    (graphIds && kept[0] !== undefined && first.review !== askedMeta[0].review)
  ) {
    throw new InterlockError(
      'These interrupts do not answer the review request the graph is waiting on (source).',
    );
  }
  for (const { interrupt, meta } of parts) {
    const params = asked[(meta as BridgeMetadata).part - 1];
    const names = interrupt.actionRequests.map((a) => a.name);
    if (
      names.length !== params.actionRequests.length ||
      names.some((n, i) => n !== params.actionRequests[i].name)
    ) {
      throw new InterlockError(
        `Interrupt ${interrupt.id} does not ask about the actions the graph is waiting on (source).`,
      );
    }
    await verifyDecisions(interrupt, params.actionRequests);
  }
  return resumeValue(
    askedMeta[0].targets,
    parts.map(({ interrupt, meta }) => ({
      interrupt,
      actions: askedMeta[(meta as BridgeMetadata).part - 1].actions,
    })),
  );
}

/** Merges the checked answers: `actions` maps each interrupt's action requests to the graph's. */
function resumeValue(
  targets: readonly Target[],
  parts: readonly { interrupt: Answered; actions: BridgeMetadata['actions'] }[],
): LangGraphResume {
  const values: unknown[][] = targets.map((t) => new Array<unknown>(t.size));
  for (const { interrupt, actions } of parts) {
    const byName = new Map<string, Decision>();
    for (const decision of interrupt.decisions ?? []) byName.set(decision.actionName, decision);
    interrupt.actionRequests.forEach((action, i) => {
      const [target, position, original] = actions[i];
      const decision = byName.get(action.name);
      if (decision === undefined) {
        throw new InterlockError(
          `Interrupt ${interrupt.id} has no decision for action ${action.name} yet: wait for it to be answered.`,
        );
      }
      values[target][position] = resumeItem(targets[target].kind, decision, original, interrupt.id);
    });
  }

  const resumes = targets.map((target, t): LangGraphResumeValue => {
    const items = values[t];
    switch (target.kind) {
      case 'hitl':
        return { decisions: items as LangGraphDecision[] };
      case 'hitl-js':
        return { decisions: items as LangChainDecision[] };
      case 'interlock':
        return { decisions: items as Decision[] };
      case 'tool-approval':
        return items[0] as LangGraphDecision;
      case 'agent-inbox':
        return target.list === true ? (items as HumanResponse[]) : (items[0] as HumanResponse);
    }
  });
  if (resumes.length === 1) return resumes[0];
  const byId: { [interruptId: string]: LangGraphResumeValue } = {};
  targets.forEach((target, t) => {
    if (target.id === null) {
      throw new InterlockError(
        'Several LangGraph interrupts were reviewed, but not all have ids: pass the Interrupt objects.',
      );
    }
    byId[target.id] = resumes[t];
  });
  return byId;
}

/** The review id of an interrupt made by the bridge (parts of one split request share it). */
export function langGraphReviewId(interrupt: {
  metadata?: Record<string, unknown> | null;
}): string | undefined {
  const kept = interrupt.metadata?.[LANGGRAPH_METADATA_KEY];
  return isRecord(kept) && typeof kept['review'] === 'string' ? kept['review'] : undefined;
}
