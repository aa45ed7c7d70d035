import type { Interrupt } from '@interlock/sdk';

/** The tools that open interrupts. */
export type OpeningTool = 'request_approval' | 'ask_human' | 'permission_prompt';

/** The action an `ask_human` interrupt asks the human to answer (with `respond`). */
export const ASK_HUMAN_ACTION = 'answer';

/**
 * Whether an interrupt is a question (what `ask_human` opens: one action, `answer`, that only a
 * written response can decide) rather than actions to approve. Read from its shape, so it holds
 * for a question asked through the SDK or the API as well.
 */
export function isQuestion(interrupt: Pick<Interrupt, 'actionRequests'>): boolean {
  const [action, ...more] = interrupt.actionRequests;
  return (
    action !== undefined &&
    more.length === 0 &&
    action.name === ASK_HUMAN_ACTION &&
    action.allowedDecisions.length === 1 &&
    action.allowedDecisions[0] === 'respond'
  );
}

export interface OutcomeDecision {
  action: string;
  decision: 'approve' | 'edit' | 'reject' | 'respond';
  editedArgs?: Record<string, unknown>;
  editedName?: string;
  message?: string;
  response?: Record<string, unknown>;
  decidedBy: string;
  decidedAt: string;
}

/** What request_approval, ask_human and get_decision return (see `outcomeOutput`). */
export interface Outcome {
  [key: string]: unknown;
  status: 'answered' | 'pending';
  interruptId: string;
  url: string;
  title: string;
  decisions: OutcomeDecision[];
  actionsAwaitingDecision: string[];
  answer?: string;
  resumed?: boolean;
  next: string;
}

export function dashboardLink(dashboardUrl: string, interruptId: string): string {
  return `${dashboardUrl.replace(/\/+$/, '')}/interrupts/${encodeURIComponent(interruptId)}`;
}

/**
 * An interrupt as a tool result. Only `answered` carries decisions to act on; anything else is
 * `pending`, and `next` says so in words: a timeout is never an approval.
 */
export function toOutcome(
  interrupt: Interrupt,
  dashboardUrl: string,
  options: { asked?: boolean; resumed?: boolean; stopped?: boolean; notWaited?: boolean } = {},
): Outcome {
  const url = dashboardLink(dashboardUrl, interrupt.id);
  const decided = new Set(interrupt.decisions.map((d) => d.actionName));
  const awaiting = interrupt.actionRequests.map((a) => a.name).filter((name) => !decided.has(name));
  const decisions: OutcomeDecision[] = interrupt.decisions.map((d) => ({
    action: d.actionName,
    decision: d.decision,
    ...(d.editedArgs === null || d.editedArgs === undefined ? {} : { editedArgs: d.editedArgs }),
    ...(d.editedName === null || d.editedName === undefined ? {} : { editedName: d.editedName }),
    ...(d.message === null || d.message === undefined ? {} : { message: d.message }),
    ...(d.response === null || d.response === undefined ? {} : { response: d.response }),
    decidedBy: d.decidedBy.name,
    decidedAt: d.decidedAt,
  }));
  // An expired interrupt is decided too: its deadline decided every action the humans had not (as `system`).
  const answered = interrupt.status === 'answered' || interrupt.status === 'expired';
  const asked = options.asked ?? isQuestion(interrupt);
  const outcome: Outcome = {
    status: answered ? 'answered' : 'pending',
    interruptId: interrupt.id,
    url,
    title: interrupt.title,
    decisions,
    actionsAwaitingDecision: awaiting,
    next: '',
  };
  const answer = asked && answered ? answerOf(interrupt) : undefined;
  if (answer !== undefined) outcome.answer = answer;
  if (options.resumed) outcome.resumed = true;
  outcome.next =
    interrupt.status === 'withdrawn'
      ? withdrawnStep(outcome, interrupt.withdrawnReason)
      : nextStep(outcome, asked, options);
  return outcome;
}

function answerOf(interrupt: Interrupt): string | undefined {
  const decision =
    interrupt.decisions.find((d) => d.actionName === ASK_HUMAN_ACTION) ?? interrupt.decisions[0];
  return decision?.message ?? undefined;
}

function withdrawnStep(outcome: Outcome, reason: string | null | undefined): string {
  const why = reason === null || reason === undefined || reason === '' ? '' : ` (${reason})`;
  const left =
    outcome.actionsAwaitingDecision.length > 0
      ? ` Nobody will decide ${outcome.actionsAwaitingDecision.map((a) => `"${a}"`).join(', ')}: do not carry ${outcome.actionsAwaitingDecision.length === 1 ? 'it' : 'them'} out.`
      : '';
  return `This request was withdrawn${why} and is closed.${left} To ask again, open a new request with a different title or description.`;
}

function nextStep(
  outcome: Outcome,
  asked: boolean,
  options: { resumed?: boolean; stopped?: boolean; notWaited?: boolean },
): string {
  const resumed = options.resumed
    ? 'This is the request you already opened with exactly these arguments in the last 24 hours; no new one was opened. '
    : '';
  if (outcome.status === 'answered') {
    if (asked) return `${resumed}The human answered: use "answer".`;
    return (
      `${resumed}Every action has a decision. Carry out only what was decided: "approve" → as you proposed; ` +
      '"edit" → with editedArgs instead of your args (and the action editedName instead, if given); "reject" → do not do it (message may say why); ' +
      '"respond" → do not do it, read message (and response, the typed answer, where you gave a responseSchema) and adapt. To ask again about the same thing, change the title or description.'
    );
  }
  const stopped = options.stopped
    ? 'The server is restarting, so it stopped waiting early. '
    : options.notWaited
      ? 'Not waited: this API key already has as many waits open as the server allows at once. '
      : '';
  const partly =
    outcome.decisions.length > 0
      ? `${outcome.decisions.length} of ${outcome.decisions.length + outcome.actionsAwaitingDecision.length} actions are decided; wait for all of them. `
      : '';
  const what = asked
    ? 'No answer yet.'
    : 'No decision yet. This is NOT an approval: do not carry out the actions.';
  return (
    `${resumed}${stopped}${what} ${partly}Call get_decision with interruptId "${outcome.interruptId}" to wait again ` +
    `(up to 50 s per call), do other work meanwhile, or give the user this link to decide: ${outcome.url}`
  );
}
