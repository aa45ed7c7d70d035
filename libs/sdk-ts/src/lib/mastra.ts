// The Mastra bridge (`@mastra/core`, tested with 0.24.9, the last line whose `engines` accept
// Node 20): a run suspended on a tool call that needs approval, decided in the inbox. Plain data
// in and out, no import of Mastra: it works on the chunk and the agent Mastra hands out.
//
// A tool with `requireApproval: true` (or a run with `requireToolApproval`) suspends the run:
// its stream yields a `tool-call-approval` chunk `{runId, payload: {toolCallId, toolName, args}}`.
// The bridge opens one interrupt for it (one action, the tool's name, its arguments as `args`),
// waits, and calls `agent.approveToolCall({runId, toolCallId})` or `agent.declineToolCall(…)`,
// returning the stream the run goes on in. Mastra runs a tool with the model's arguments and
// tells the model of a decline in its own words ("Tool call was not approved by the user"): the
// action allows `approve` and `reject` only, and a reviewer's message is kept in Interlock's
// record but not read by the model. Read the returned stream at once (its `text`, `fullStream`):
// Mastra 0.24 drops the text chunks of a run's stream that nobody reads yet, so a stream read
// after some other wait can end with `text` "" though the model answered.
//
// Durable path: `openMastraReview` opens the interrupt and returns at once; later,
// `resumeMastra(agent, answered, chunk)` applies the decision. Mastra keeps the suspended run in its
// storage (the `Mastra` instance's `storage`): a run resumes in another process only with a
// storage that outlives the process (tested with @mastra/pg 0.17.10's PostgresStore, the first
// process exiting after it opened the review). Keep the chunk (plain JSON) with the run: the decision is
// applied only when it is about that tool call as it was sent (its `actionDigest`, SPEC §8e).
import type { Interlock } from './client';
import { InterlockError } from './errors';
import { verifyDecisions } from './action-digest';
import {
  answerAbout,
  approvalOutcome,
  approvalTitle,
  argsOf,
  bridgeOf,
  type BridgeInterruptOptions,
  type BridgeReviewOptions,
} from './tool-approvals';
import type { Interrupt, InterruptCreateParams } from './types';

/** Where the bridge keeps, in the interrupt's metadata, which run and tool call it is about. */
export const MASTRA_METADATA_KEY = 'mastra';

/** What the bridge reads of Mastra's `tool-call-approval` chunk. */
export interface MastraToolCallApproval {
  type: 'tool-call-approval';
  runId: string;
  payload: { toolCallId: string; toolName: string; args?: unknown };
}

/** What the bridge uses of a Mastra `Agent`: `approveToolCall` / `declineToolCall` resume the run. */
export interface MastraApprovingAgent<Output> {
  approveToolCall(options: { runId: string; toolCallId?: string }): Promise<Output>;
  declineToolCall(options: { runId: string; toolCallId?: string }): Promise<Output>;
}

interface BridgeMetadata {
  v: 1;
  runId: string;
  toolCallId: string;
  toolName: string;
}

/** The create parameters for a run suspended on `approval` (a `tool-call-approval` chunk). */
export function mastraInterrupt(
  approval: MastraToolCallApproval,
  options: BridgeInterruptOptions = {},
): InterruptCreateParams {
  if (approval?.type !== 'tool-call-approval' || typeof approval.runId !== 'string') {
    throw new InterlockError(
      "Expected Mastra's tool-call-approval chunk ({type: 'tool-call-approval', runId, payload}).",
    );
  }
  const { toolCallId, toolName } = approval.payload;
  const bridge: BridgeMetadata = { v: 1, runId: approval.runId, toolCallId, toolName };
  const { metadata, ...rest } = options;
  return {
    title: approvalTitle([toolName]),
    ...rest,
    actionRequests: [
      {
        name: toolName,
        args: argsOf(approval.payload.args),
        allowedDecisions: ['approve', 'reject'],
      },
    ],
    metadata: { ...metadata, [MASTRA_METADATA_KEY]: bridge },
  };
}

/**
 * Applies an answered interrupt's decision to the suspended run: approve → `approveToolCall`;
 * reject, or no decision (withdrawn, expired) → `declineToolCall`. `approval` is the run's
 * `tool-call-approval` chunk the interrupt was opened for: the decision must be about that call
 * as it was sent (its digest), else `ActionDigestMismatchError` and the run is left suspended.
 * Returns the agent's output for the resumed run (its stream), which may suspend again: read it
 * at once (Mastra 0.24 drops the text chunks of a stream nobody reads yet).
 */
export async function resumeMastra<Output>(
  agent: MastraApprovingAgent<Output>,
  answered: Pick<Interrupt, 'id' | 'metadata' | 'status' | 'actionRequests' | 'decisions'>,
  approval: MastraToolCallApproval,
): Promise<Output> {
  const { runId, toolCallId, toolName } = bridgeOf<BridgeMetadata>(
    answered,
    MASTRA_METADATA_KEY,
    'the Mastra bridge',
    (kept) => typeof kept.runId === 'string',
  );
  if (approval?.runId !== runId || approval.payload?.toolCallId !== toolCallId) {
    throw new InterlockError(
      `This interrupt is about tool call ${toolCallId} of run ${runId}, not the chunk given.`,
    );
  }
  await verifyDecisions(answered, [{ name: toolName, args: argsOf(approval.payload.args) }]);
  const outcome = approvalOutcome(answered, toolName);
  return outcome.approved
    ? await agent.approveToolCall({ runId, toolCallId })
    : await agent.declineToolCall({ runId, toolCallId });
}

/**
 * Opens one interrupt for a run suspended on `approval`, waits for a member and resumes the run
 * with their decision: `const next = await reviewMastraToolCall(client, agent, chunk)`.
 */
export async function reviewMastraToolCall<Output>(
  client: Interlock,
  agent: MastraApprovingAgent<Output>,
  approval: MastraToolCallApproval,
  options: BridgeReviewOptions = {},
): Promise<Output> {
  const { wait, request, ...params } = options;
  const create = mastraInterrupt(approval, params);
  const opened = await client.interrupts.create(create, request);
  const answered = await answerAbout(client, opened, create.actionRequests, wait);
  return await resumeMastra(agent, answered, approval);
}

/** The durable path's first half: opens the interrupt and returns it at once. */
export async function openMastraReview(
  client: Interlock,
  approval: MastraToolCallApproval,
  options: Omit<BridgeReviewOptions, 'wait'> = {},
): Promise<Interrupt> {
  const { request, ...params } = options;
  return await client.interrupts.create(mastraInterrupt(approval, params), request);
}
