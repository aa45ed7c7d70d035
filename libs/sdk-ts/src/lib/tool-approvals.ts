// What the framework bridges share: the options every bridge takes for the interrupt it opens,
// the actions' names (each unique in its interrupt), and the title made from them.
import { type AskedAction, verifyDecisions } from './action-digest';
import type { Interlock } from './client';
import { InterlockError } from './errors';
import type { RequestOptions } from './request-options';
import type { WaitForAnswerOptions } from './resources/interrupts';
import type { Decision, Interrupt, InterruptCreateParams } from './types';

const MAX_TITLE_LENGTH = 200;

/** What a bridge's caller may set on the interrupt it opens: `title`, `description`, `externalId`, `sessionId`, `metadata`, a deadline… */
export type BridgeInterruptOptions = Partial<Omit<InterruptCreateParams, 'actionRequests'>>;

/** A bridge that waits: the interrupt's fields, how to wait, and the create call's request options. */
export interface BridgeReviewOptions extends BridgeInterruptOptions {
  /** How to wait for the answer (`waitForAnswer`'s options: `timeout`, `pollInterval`, `signal`…). */
  wait?: WaitForAnswerOptions;
  /** Per-request options of the create call. */
  request?: RequestOptions;
}

/**
 * What a bridge kept under `metadata[key]` of an interrupt it opened, once the interrupt is no
 * longer open: throws when the interrupt was not opened by `openedBy` (`isKept` refuses what is
 * there; `field` names what is missing, default `key`) or is still open.
 */
export function bridgeOf<Kept extends { v: 1 }>(
  interrupt: Pick<Interrupt, 'metadata' | 'status'>,
  key: string,
  openedBy: string,
  isKept: (kept: Kept) => boolean,
  field: string = key,
): Kept {
  const kept = interrupt.metadata?.[key] as Kept | null | undefined;
  if (kept === undefined || kept === null || kept.v !== 1 || !isKept(kept)) {
    throw new InterlockError(
      `This interrupt was not opened by ${openedBy} (no metadata.${field}).`,
    );
  }
  if (interrupt.status === 'open')
    throw new InterlockError(
      'The interrupt is still open: wait for the answer first (interrupts.waitForAnswer).',
    );
  return kept;
}

/** Names each tool call's action: the tool's name, then `name #2`, `name #3` for repeated calls. */
export function actionNamer(): (tool: string) => string {
  const used = new Set<string>();
  return (tool) => {
    let name = tool;
    for (let n = 2; used.has(name); n++) name = `${tool} #${n}`;
    used.add(name);
    return name;
  };
}

/** `Approve send_email?`, or `Approve 3 tool calls: send_email, delete_file?` (each tool named once). */
export function approvalTitle(tools: readonly string[]): string {
  const names = [...new Set(tools)].join(', ');
  const title =
    tools.length === 1 ? `Approve ${names}?` : `Approve ${tools.length} tool calls: ${names}?`;
  return title.length <= MAX_TITLE_LENGTH ? title : `${title.slice(0, MAX_TITLE_LENGTH - 1)}…`;
}

/** A tool call's arguments as an action's `args`: an object as it is, anything else under `arguments`. */
export function argsOf(input: unknown): Record<string, unknown> {
  if (typeof input === 'object' && input !== null && !Array.isArray(input))
    return input as Record<string, unknown>;
  return input === undefined ? {} : { arguments: input };
}

/** JSON arguments as the model wrote them, parsed; text that is not JSON is shown as it is. */
export function parseArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  try {
    return argsOf(JSON.parse(text));
  } catch {
    return { arguments: text };
  }
}

/** The outcome of one approval action of an answered (or withdrawn, or expired) interrupt. */
export type ApprovalOutcome =
  | { approved: true; decision: Decision }
  | { approved: false; reason?: string; decision?: Decision };

/**
 * What an answered interrupt says of action `name`, for a framework that can only run or not run
 * the call: approve → approved; reject → not approved, with the member's message if any; no
 * decision (the interrupt was withdrawn or expired) → not approved, saying so. Any other decision
 * is not one the bridge allowed: not approved, saying which it was.
 */
export function approvalOutcome(
  interrupt: Pick<Interrupt, 'status' | 'decisions'>,
  name: string,
): ApprovalOutcome {
  const decision = interrupt.decisions.find((d) => d.actionName === name);
  if (decision === undefined) {
    return {
      approved: false,
      reason: `The request for approval was ${interrupt.status}; the tool did not run.`,
    };
  }
  if (decision.decision === 'approve') return { approved: true, decision };
  if (decision.decision === 'reject') {
    return decision.message
      ? { approved: false, decision, reason: decision.message }
      : { approved: false, decision };
  }
  return {
    approved: false,
    decision,
    reason: `The decision was ${decision.decision}, which this tool call cannot take; it did not run.`,
  };
}

/**
 * The answer to an interrupt a bridge just opened about `asked`: the interrupt itself when it was
 * decided as it opened (argus), else the one `waitForAnswer` returns. Either way its action
 * requests and decisions are checked against `asked` (their digests, SPEC §8e):
 * `ActionDigestMismatchError` when one is about another action.
 */
export async function answerAbout(
  client: Interlock,
  opened: Interrupt,
  asked: readonly AskedAction[],
  wait: WaitForAnswerOptions = {},
): Promise<Interrupt> {
  if (opened.status === 'open')
    return await client.interrupts.waitForAnswer(opened.id, { ...wait, actionRequests: asked });
  await verifyDecisions(opened, asked);
  return opened;
}
