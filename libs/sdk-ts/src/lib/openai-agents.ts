// The OpenAI Agents SDK bridge (`@openai/agents`): a run paused on tool approvals, reviewed in the
// inbox. Plain data in and out, no import of the SDK: it works on the objects the SDK hands out.
//
// A tool with `needsApproval` pauses the run: `result.interruptions` lists one approval item per
// call. The bridge opens one interrupt for them (one action per call, its JSON arguments as
// `args`), waits, and applies each member's decision to the `RunState`: approve →
// `state.approve(item)`, reject → `state.reject(item, { message })` (the member's message is what
// the model reads). Resume with `runner.run(agent, state)`. The SDK cannot run a tool with other
// arguments than the model gave, so each action allows only `approve` and `reject`.
//
// Durable path: `openOpenAIAgentsReview` stores the serialised state in the interrupt's metadata
// and returns at once; later, in any process, `resumeOpenAIAgents` rebuilds the state from the
// answered interrupt with the decisions applied. With a `resumeUrl` on the interrupt the service
// POSTs the answered interrupt there (signed under the key), and `resumeOpenAIAgentsFromWebhook`
// turns that POST into the state: no process waits and nothing polls.
//
// Before any decision is applied, the bridge checks that it is about the tool call the run holds
// (SPEC §8e, `actionDigest` over the call's name and arguments): `ActionDigestMismatchError` else.
import { type AskedAction, verifyDecisions } from './action-digest';
import type { Interlock } from './client';
import { InterlockError } from './errors';
import { readEnv } from './runtime';
import { shortenDescription } from './langgraph';
import {
  actionNamer,
  approvalOutcome,
  approvalTitle,
  bridgeOf,
  type BridgeInterruptOptions,
  type BridgeReviewOptions,
  parseArguments,
} from './tool-approvals';
import type { ActionRequest, Interrupt, InterruptCreateParams } from './types';
import { resumeSigningSecret, type WebhookHeaders, Webhooks } from './webhooks';

/** Where the bridge keeps, in the interrupt's metadata, which action is which tool call (and the state, when durable). */
export const OPENAI_AGENTS_METADATA_KEY = 'openaiAgents';

/** What the bridge reads of the SDK's `RunToolApprovalItem`. */
export interface OpenAIAgentsApprovalItem {
  name?: string;
  arguments?: string;
  rawItem: { callId?: string } | Record<string, unknown>;
  agent?: { name?: string };
}

/** What the bridge uses of the SDK's `RunState`. */
export interface OpenAIAgentsRunState<Item = OpenAIAgentsApprovalItem> {
  getInterruptions(): Item[];
  approve(item: Item, options?: { alwaysApprove?: boolean }): void;
  reject(item: Item, options?: { alwaysReject?: boolean; message?: string }): void;
  toString(): string;
}

/** A run's result (`{ state }`) or its `RunState`. */
export type OpenAIAgentsSource<Item> =
  OpenAIAgentsRunState<Item> | { state: OpenAIAgentsRunState<Item> };

/** The interrupt's fields the caller sets (every bridge's `BridgeInterruptOptions`). */
export type OpenAIAgentsInterruptOptions = BridgeInterruptOptions;

/** The interrupt's fields, `wait` and `request` (every waiting bridge's `BridgeReviewOptions`). */
export type ReviewOpenAIAgentsOptions = BridgeReviewOptions;

interface BridgeMetadata {
  v: 1;
  /** Per action: [its name in the interrupt, the tool call's id]. */
  calls: [string, string][];
  state?: string;
}

function stateOf<Item>(source: OpenAIAgentsSource<Item>): OpenAIAgentsRunState<Item> {
  if (typeof (source as OpenAIAgentsRunState<Item>).getInterruptions === 'function')
    return source as OpenAIAgentsRunState<Item>;
  const state = (source as { state?: OpenAIAgentsRunState<Item> }).state;
  if (state !== undefined && typeof state.getInterruptions === 'function') return state;
  throw new InterlockError('Expected an @openai/agents run result or its RunState (result.state).');
}

function callId(item: OpenAIAgentsApprovalItem): string {
  const id = (item.rawItem as { callId?: unknown }).callId;
  if (typeof id !== 'string' || id === '') {
    throw new InterlockError(
      'A tool approval item without a callId: the bridge cannot map its decision back.',
    );
  }
  return id;
}

/** The create parameters for a paused run's tool approvals (at most 20); `includeState` stores the serialised state. */
export function openAIAgentsInterrupt<Item extends OpenAIAgentsApprovalItem>(
  source: OpenAIAgentsSource<Item>,
  options: OpenAIAgentsInterruptOptions = {},
  includeState = false,
): InterruptCreateParams {
  const state = stateOf(source);
  const items = state.getInterruptions();
  if (items.length === 0)
    throw new InterlockError(
      'This run has no pending tool approvals (result.interruptions is empty).',
    );
  if (items.length > 20)
    throw new InterlockError(`${items.length} tool approvals: an interrupt holds at most 20.`);
  const nameOf = actionNamer();
  const calls: [string, string][] = [];
  const actionRequests = items.map((item): ActionRequest => {
    const tool = item.name ?? 'tool';
    const name = nameOf(tool);
    calls.push([name, callId(item)]);
    const action: ActionRequest = {
      name,
      args: parseArguments(item.arguments),
      allowedDecisions: ['approve', 'reject'],
    };
    if (item.agent?.name)
      action.description = shortenDescription(`${item.agent.name} wants to call ${tool}.`);
    return action;
  });
  const bridge: BridgeMetadata = {
    v: 1,
    calls,
    ...(includeState ? { state: state.toString() } : {}),
  };
  const { metadata, ...rest } = options;
  return {
    title: approvalTitle(items.map((i) => i.name ?? 'tool')),
    ...rest,
    actionRequests,
    metadata: { ...metadata, [OPENAI_AGENTS_METADATA_KEY]: bridge },
  };
}

function keptBy(interrupt: Pick<Interrupt, 'metadata' | 'status'>): BridgeMetadata {
  return bridgeOf<BridgeMetadata>(
    interrupt,
    OPENAI_AGENTS_METADATA_KEY,
    'the OpenAI Agents bridge',
    (kept) => Array.isArray(kept.calls),
  );
}

/** The interrupt's fields the bridge reads when it resumes. */
export type AnsweredOpenAIAgentsInterrupt = Pick<
  Interrupt,
  'id' | 'metadata' | 'status' | 'actionRequests' | 'decisions'
>;

/**
 * Applies the members' decisions of an answered interrupt to the run state (approve → approve;
 * reject → reject with the member's message; a call left undecided because the interrupt was
 * withdrawn or expired → reject, saying so). Returns the state, ready for `runner.run(agent, state)`.
 * First checks every action and decision against the tool calls the state holds (their digests,
 * SPEC §8e): throws `ActionDigestMismatchError`, and applies nothing, when one differs.
 */
export async function applyOpenAIAgentsDecisions<
  Item extends OpenAIAgentsApprovalItem,
  S extends OpenAIAgentsRunState<Item>,
>(state: S, interrupt: AnsweredOpenAIAgentsInterrupt): Promise<S> {
  const bridge = keptBy(interrupt);
  const byCall = new Map(bridge.calls.map(([name, id]) => [id, name]));
  const pending: [Item, string][] = [];
  const asked: AskedAction[] = [];
  for (const item of state.getInterruptions()) {
    const name = byCall.get(callId(item));
    if (name === undefined) continue; // an approval this interrupt did not ask about
    pending.push([item, name]);
    asked.push({ name, args: parseArguments(item.arguments) });
  }
  await verifyDecisions(interrupt, asked);
  for (const [item, name] of pending) {
    const outcome = approvalOutcome(interrupt, name);
    if (outcome.approved) state.approve(item);
    else state.reject(item, outcome.reason === undefined ? {} : { message: outcome.reason });
  }
  return state;
}

/**
 * Opens one interrupt for a paused run's tool approvals, waits for the members, applies their
 * decisions and returns the `RunState`: `result = await runner.run(agent, state)`.
 */
export async function reviewOpenAIAgents<
  Item extends OpenAIAgentsApprovalItem,
  S extends OpenAIAgentsRunState<Item>,
>(
  client: Interlock,
  source: S | { state: S },
  options: ReviewOpenAIAgentsOptions = {},
): Promise<S> {
  const { wait, request, ...params } = options;
  const state = stateOf(source) as S;
  const opened = await client.interrupts.create(openAIAgentsInterrupt(state, params), request);
  const answered = await client.interrupts.waitForAnswer(opened.id, wait);
  return await applyOpenAIAgentsDecisions(state, answered);
}

/**
 * The durable path's first half: opens the interrupt with the serialised run state in its
 * metadata and returns it at once (keep its id, or receive `interrupt.answered` by webhook). Give
 * `resumeUrl` and the service POSTs the answered (or expired, or withdrawn) interrupt there:
 * `resumeOpenAIAgentsFromWebhook` turns that POST into the run state.
 */
export async function openOpenAIAgentsReview<Item extends OpenAIAgentsApprovalItem>(
  client: Interlock,
  source: OpenAIAgentsSource<Item>,
  options: Omit<ReviewOpenAIAgentsOptions, 'wait'> = {},
): Promise<Interrupt> {
  const { request, ...params } = options;
  return await client.interrupts.create(openAIAgentsInterrupt(source, params, true), request);
}

/**
 * The durable path's second half: the run state stored by `openOpenAIAgentsReview`, rebuilt with
 * `fromString` (`(text) => RunState.fromString(agent, text)`, with the same agent definition) and
 * the answered interrupt's decisions applied. Read the interrupt with your own key: its metadata
 * is what your agent stored (members cannot change it); never take the state from a request body.
 */
export async function resumeOpenAIAgents<
  Item extends OpenAIAgentsApprovalItem,
  S extends OpenAIAgentsRunState<Item>,
>(answered: AnsweredOpenAIAgentsInterrupt, fromString: (state: string) => Promise<S>): Promise<S> {
  const bridge = keptBy(answered);
  if (typeof bridge.state !== 'string') {
    throw new InterlockError(
      'This interrupt holds no run state: it was opened with reviewOpenAIAgents, not openOpenAIAgentsReview.',
    );
  }
  return await applyOpenAIAgentsDecisions(await fromString(bridge.state), answered);
}

/** The events that end an interrupt: the ones a `resumeUrl` receives. */
const ENDING_EVENTS = new Set(['interrupt.answered', 'interrupt.expired', 'interrupt.withdrawn']);

/** How `resumeOpenAIAgentsFromWebhook` verifies the POST. */
export interface OpenAIAgentsWebhookOptions {
  /**
   * The API key that opened the interrupt (default `INTERLOCK_API_KEY`): a `resumeUrl` POST is
   * signed under `resumeSigningSecret(apiKey)`.
   */
  apiKey?: string;
  /** An organisation webhook's secret (`whsec_…`) instead, for `interrupt.answered` webhooks. */
  secret?: string;
  /** Seconds the signature's timestamp may be off (default 300). */
  tolerance?: number;
}

/**
 * The webhook half of the durable path: a `resumeUrl` POST (or an organisation webhook's
 * `interrupt.answered`) as received — the raw body, not re-encoded, and its headers — verified
 * (signature and timestamp; `WebhookVerificationError` else), then the stored run state rebuilt
 * with `fromString` and the decisions applied (digests checked) as `resumeOpenAIAgents` does.
 * Answer the POST with a 2xx once you have kept or run the state: the service retries otherwise.
 */
export async function resumeOpenAIAgentsFromWebhook<
  Item extends OpenAIAgentsApprovalItem,
  S extends OpenAIAgentsRunState<Item>,
>(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  fromString: (state: string) => Promise<S>,
  options: OpenAIAgentsWebhookOptions = {},
): Promise<{ interrupt: Interrupt; state: S }> {
  let secret = options.secret;
  if (secret === undefined) {
    const apiKey = options.apiKey ?? readEnv('INTERLOCK_API_KEY');
    if (apiKey === undefined || apiKey === '') {
      throw new InterlockError(
        'No API key to verify the resumeUrl POST with: pass `apiKey` or set INTERLOCK_API_KEY.',
      );
    }
    secret = await resumeSigningSecret(apiKey);
  }
  const event = await new Webhooks().unwrap(
    body,
    headers,
    secret,
    options.tolerance === undefined ? {} : { tolerance: options.tolerance },
  );
  if (!ENDING_EVENTS.has(event.type)) {
    throw new InterlockError(
      `A ${event.type} event does not end an interrupt: only interrupt.answered, interrupt.expired and interrupt.withdrawn resume a run.`,
    );
  }
  const interrupt = event.data as Interrupt;
  return { interrupt, state: await resumeOpenAIAgents(interrupt, fromString) };
}
