// The AI SDK bridge (`ai` 7): tool calls approved in the inbox. Plain data in and out, no import
// of the package: it works on the shapes the SDK hands out and accepts.
//
// Two ways, as the AI SDK has two:
// - `interlockToolApproval(client)` is a `toolApproval` function (generateText, streamText,
//   ToolLoopAgent): each tool call opens an interrupt with one action (the tool's name, its input
//   as `args`), waits, and answers `approved` or `denied` (with the member's message as the
//   reason the model reads). An interrupt argus decided at once (SPEC §8d) answers at once.
// - The message-based flow: a tool with `needsApproval` (or a `toolApproval` answering
//   `user-approval`) ends the call with `tool-approval-request` parts. `openAISDKReview` opens
//   one interrupt for them and returns; `aiSDKApprovalMessage(answered)` turns the decisions into
//   the `tool` message of `tool-approval-response` parts to append before calling again — in any
//   process, later (the durable path: your app keeps its messages, the interrupt keeps which
//   approval is which).
// The SDK runs a tool with the input the model gave or not at all, so each action allows only
// `approve` and `reject`.
import { verifyDecisions } from './action-digest';
import type { Interlock } from './client';
import { InterlockError } from './errors';
import { MAX_ACTIONS_PER_INTERRUPT, shortenDescription } from './langgraph';
import {
  actionNamer,
  answerAbout,
  approvalOutcome,
  approvalTitle,
  argsOf,
  bridgeOf,
  type BridgeInterruptOptions,
  type BridgeReviewOptions,
} from './tool-approvals';
import type { ActionRequest, Interrupt, InterruptCreateParams } from './types';

/** Where the bridge keeps, in the interrupt's metadata, which action is which tool call. */
export const AI_SDK_METADATA_KEY = 'aiSdk';

/** What the bridge reads of the SDK's tool call (`TypedToolCall`). */
export interface AISDKToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What the bridge reads of the tools given to the call: `tools[name].description`, when it is text. */
export type AISDKTools = Record<string, { description?: unknown } | undefined>;

/** What a `toolApproval` function answers (a subset of the SDK's `ToolApprovalStatus`). */
export type AISDKApprovalStatus =
  'not-applicable' | { type: 'approved'; reason?: string } | { type: 'denied'; reason?: string };

export interface InterlockToolApprovalOptions extends Omit<
  BridgeReviewOptions,
  'title' | 'description'
> {
  /** The interrupt's title (default `Approve <tool>?`), or a function of the tool call. */
  title?: string | ((toolCall: AISDKToolCall) => string);
  /** The interrupt's description (default none), or a function of the tool call. The action shows the tool's own description. */
  description?: string | ((toolCall: AISDKToolCall) => string);
  /** Only these tools ask (the others run without approval: `not-applicable`). Default: every tool. */
  tools?: readonly string[];
}

interface InlineMetadata {
  v: 1;
  toolCallId: string;
}

interface MessagesMetadata {
  v: 1;
  /** Per action: [its name in the interrupt, the approval's id, the tool call's id]. */
  approvals: [string, string, string][];
}

function toolDescription(tools: AISDKTools | undefined, name: string): string | undefined {
  const description = tools?.[name]?.description;
  return typeof description === 'string' && description !== ''
    ? shortenDescription(description)
    : undefined;
}

/**
 * A `toolApproval` function for `generateText`, `streamText` or a `ToolLoopAgent`: each tool call
 * opens one interrupt, waits for the members, and answers `approved`, or `denied` with the
 * member's message as the reason (the model reads it as the tool's result). A request withdrawn
 * or expired without a decision is denied, saying so. When argus decided the call as it was
 * opened, that decision is the answer and nothing waits. `WaitTimeoutError` (after `wait.timeout`,
 * default 10 minutes) ends the generation: use the message-based flow to wait longer.
 *
 *   await generateText({ model, tools, prompt, toolApproval: interlockToolApproval(client) });
 */
export function interlockToolApproval(
  client: Interlock,
  options: InterlockToolApprovalOptions = {},
): (call: { toolCall: AISDKToolCall; tools?: AISDKTools }) => Promise<AISDKApprovalStatus> {
  const { tools: only, title, description, wait, request, metadata, ...rest } = options;
  return async ({ toolCall, tools }) => {
    if (only !== undefined && !only.includes(toolCall.toolName)) return 'not-applicable';
    const name = toolCall.toolName;
    const action: ActionRequest = {
      name,
      args: argsOf(toolCall.input),
      allowedDecisions: ['approve', 'reject'],
    };
    const about = toolDescription(tools, name);
    if (about !== undefined) action.description = about;
    const text = typeof description === 'function' ? description(toolCall) : description;
    const bridge: InlineMetadata = { v: 1, toolCallId: toolCall.toolCallId };
    const params: InterruptCreateParams = {
      ...rest,
      title: typeof title === 'function' ? title(toolCall) : (title ?? approvalTitle([name])),
      ...(text === undefined ? {} : { description: text }),
      actionRequests: [action],
      metadata: { ...metadata, [AI_SDK_METADATA_KEY]: bridge },
    };
    const opened = await client.interrupts.create(params, request);
    // Decided as it was opened (argus, SPEC §8d): no wait. Either way about this call (its digest).
    const answered = await answerAbout(client, opened, [action], wait);
    const outcome = approvalOutcome(answered, name);
    const reason = outcome.approved ? outcome.decision.message : outcome.reason;
    return { type: outcome.approved ? 'approved' : 'denied', ...(reason ? { reason } : {}) };
  };
}

/** A `tool-approval-request` waiting for its answer, with the tool call it is for. */
export interface AISDKPendingApproval {
  approvalId: string;
  toolCall: AISDKToolCall;
}

/** What the bridge reads of a generate/stream result (its last step's `content`) or of model messages. */
export type AISDKApprovalSource =
  { content: readonly unknown[] } | readonly { role: string; content: unknown }[];

type Part = Record<string, unknown>;

function partsOf(source: AISDKApprovalSource): Part[] {
  const isPart = (p: unknown): p is Part => typeof p === 'object' && p !== null;
  if (Array.isArray(source)) {
    return (source as readonly { content: unknown }[]).flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter(isPart) : [],
    );
  }
  const content = (source as { content?: unknown }).content;
  if (!Array.isArray(content))
    throw new InterlockError('Expected an AI SDK result (with content) or its messages.');
  return content.filter(isPart);
}

/**
 * The approval requests of a result (`generateText`'s, or `await streamText(…).content`) or of a
 * conversation's model messages that have no `tool-approval-response` yet — the ones a person
 * must answer (those `toolApproval` decided automatically are answered already).
 */
export function pendingAISDKApprovals(source: AISDKApprovalSource): AISDKPendingApproval[] {
  const parts = partsOf(source);
  const calls = new Map<string, AISDKToolCall>();
  const answered = new Set<string>();
  for (const p of parts) {
    if (p.type === 'tool-call' && typeof p.toolCallId === 'string') {
      calls.set(p.toolCallId, {
        toolCallId: p.toolCallId,
        toolName: String(p.toolName),
        input: p.input,
      });
    }
    if (p.type === 'tool-approval-response' && typeof p.approvalId === 'string')
      answered.add(p.approvalId);
  }
  const pending: AISDKPendingApproval[] = [];
  for (const p of parts) {
    if (
      p.type !== 'tool-approval-request' ||
      typeof p.approvalId !== 'string' ||
      answered.has(p.approvalId)
    )
      continue;
    // A result's part carries its tool call; a message's part names it by id.
    const call = (p.toolCall as AISDKToolCall | undefined) ?? calls.get(String(p.toolCallId));
    if (call === undefined)
      throw new InterlockError(
        `The approval request ${p.approvalId} names a tool call that is not in these messages.`,
      );
    pending.push({
      approvalId: p.approvalId,
      toolCall: { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input },
    });
  }
  return pending;
}

/** The create parameters for the pending approvals of a result or of messages (at most 20). */
export function aiSDKInterrupt(
  source: AISDKApprovalSource,
  options: BridgeInterruptOptions & { tools?: AISDKTools } = {},
): InterruptCreateParams {
  const { tools, metadata, ...rest } = options;
  const pending = pendingAISDKApprovals(source);
  if (pending.length === 0)
    throw new InterlockError(
      'There are no pending tool approvals (no tool-approval-request without its response).',
    );
  if (pending.length > MAX_ACTIONS_PER_INTERRUPT) {
    throw new InterlockError(
      `${pending.length} tool approvals: an interrupt holds at most ${MAX_ACTIONS_PER_INTERRUPT}.`,
    );
  }
  const nameOf = actionNamer();
  const approvals: [string, string, string][] = [];
  const actionRequests = pending.map(({ approvalId, toolCall }): ActionRequest => {
    const name = nameOf(toolCall.toolName);
    approvals.push([name, approvalId, toolCall.toolCallId]);
    const action: ActionRequest = {
      name,
      args: argsOf(toolCall.input),
      allowedDecisions: ['approve', 'reject'],
    };
    const about = toolDescription(tools, toolCall.toolName);
    if (about !== undefined) action.description = about;
    return action;
  });
  const bridge: MessagesMetadata = { v: 1, approvals };
  return {
    title: approvalTitle(pending.map((p) => p.toolCall.toolName)),
    ...rest,
    actionRequests,
    metadata: { ...metadata, [AI_SDK_METADATA_KEY]: bridge },
  };
}

/** One answer for the SDK: a `tool-approval-response` part's fields (in a `useChat` app, `addToolApprovalResponse`'s, with `id` = `approvalId`). */
export interface AISDKApprovalDecision {
  approvalId: string;
  approved: boolean;
  reason?: string;
}

/** The interrupt's fields the message-based flow reads. */
export type AnsweredAISDKInterrupt = Pick<
  Interrupt,
  'id' | 'metadata' | 'status' | 'actionRequests' | 'decisions'
>;

/**
 * The members' decisions of an interrupt opened by `openAISDKReview`, one per approval: approve →
 * approved; reject → denied with the member's message as the reason the model reads; undecided
 * because the interrupt was withdrawn or expired → denied, saying so. `source` is the result or
 * the stored messages the approvals are pending in: each decision must be about its tool call
 * as it is there (its digest, SPEC §8e), else `ActionDigestMismatchError` and no answer at all.
 */
export async function aiSDKApprovalDecisions(
  answered: AnsweredAISDKInterrupt,
  source: AISDKApprovalSource,
): Promise<AISDKApprovalDecision[]> {
  const kept = bridgeOf<MessagesMetadata>(
    answered,
    AI_SDK_METADATA_KEY,
    'openAISDKReview',
    (meta) => Array.isArray(meta.approvals),
    'aiSdk.approvals',
  );
  const pending = new Map(pendingAISDKApprovals(source).map((p) => [p.approvalId, p.toolCall]));
  const asked = kept.approvals.map(([name, approvalId]) => {
    const toolCall = pending.get(approvalId);
    if (toolCall === undefined) {
      throw new InterlockError(
        `The approval request ${approvalId} is not pending in these messages: answered already, or another conversation.`,
      );
    }
    return { name, args: argsOf(toolCall.input) };
  });
  await verifyDecisions(answered, asked);
  return kept.approvals.map(([name, approvalId]) => {
    const outcome = approvalOutcome(answered, name);
    const reason = outcome.approved ? outcome.decision.message : outcome.reason;
    return { approvalId, approved: outcome.approved, ...(reason ? { reason } : {}) };
  });
}

/** The `tool` message to append to the conversation before calling the model again. */
export interface AISDKApprovalMessage {
  role: 'tool';
  content: ({ type: 'tool-approval-response' } & AISDKApprovalDecision)[];
}

/**
 * `aiSDKApprovalDecisions` as the `tool` message of `tool-approval-response` parts:
 * `messages.push(await aiSDKApprovalMessage(answered, messages))`.
 */
export async function aiSDKApprovalMessage(
  answered: AnsweredAISDKInterrupt,
  source: AISDKApprovalSource,
): Promise<AISDKApprovalMessage> {
  return {
    role: 'tool',
    content: (await aiSDKApprovalDecisions(answered, source)).map((d) => ({
      type: 'tool-approval-response',
      ...d,
    })),
  };
}

/**
 * Opens one interrupt for the pending approvals of a result or of messages (one action per tool
 * call) and returns it at once: keep its id with the conversation, and when it is answered
 * (`interrupt.answered` by webhook, or `waitForAnswer`) append
 * `await aiSDKApprovalMessage(answered, messages)`. Pass `tools` to show each tool's description
 * on its action.
 */
export async function openAISDKReview(
  client: Interlock,
  source: AISDKApprovalSource,
  options: Omit<BridgeReviewOptions, 'wait'> & { tools?: AISDKTools } = {},
): Promise<Interrupt> {
  const { request, ...params } = options;
  return await client.interrupts.create(aiSDKInterrupt(source, params), request);
}

/** `openAISDKReview`, then waits for the answer and returns the `tool` message to append. */
export async function reviewAISDK(
  client: Interlock,
  source: AISDKApprovalSource,
  options: BridgeReviewOptions & { tools?: AISDKTools } = {},
): Promise<AISDKApprovalMessage> {
  const { wait, request, ...params } = options;
  const create = aiSDKInterrupt(source, params);
  const opened = await client.interrupts.create(create, request);
  const answered = await answerAbout(client, opened, create.actionRequests, wait);
  return await aiSDKApprovalMessage(answered, source);
}
