import { approvalsLineOf, riskLineOf, stateOf, type InterruptNotice } from '../notification-outbox';

/** What a button carries back to us in Slack's interaction payload (compact JSON). */
export interface SlackButtonValue {
  /** The interrupt. */
  i: string;
  /** The action's name. */
  a: string;
  d: 'approve' | 'reject';
  /** The action's digest (SPEC §8e): a decision is refused when the action is no longer this one. */
  g: string;
}

/** The Block Kit message of one interrupt, as `chat.postMessage` and `chat.update` take it. */
export interface SlackMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

const DECIDED: Record<string, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  edit: 'Approved with changes',
  respond: 'Answered',
};

/** Slack's limits on a text object, cut with an ellipsis. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Plain text only for what an agent wrote (titles, descriptions, action names, arguments): a
 * `plain_text` object is shown as it is, so nothing an agent sends can become a link, a mention
 * or formatting in the channel. `emoji: false` keeps `:name:` sequences literal too.
 */
const plain = (text: string, max = 3000) => ({
  type: 'plain_text',
  text: cut(text === '' ? ' ' : text, max),
  emoji: false,
});

/**
 * The message for an interrupt as it now is: while it is open, each action that a person has
 * not decided has Approve / Reject buttons (those its `allowedDecisions` include); once it is
 * decided, expired or withdrawn the buttons are gone and the message says so — the message is
 * edited on every change, so it never shows a stale "waiting".
 */
export function renderSlackMessage(interrupt: InterruptNotice, dashboardUrl: string): SlackMessage {
  const open = interrupt.status === 'open';
  const state = stateOf(interrupt);
  const blocks: Record<string, unknown>[] = [{ type: 'header', text: plain(interrupt.title, 150) }];
  if (interrupt.description !== null && interrupt.description !== '')
    blocks.push({ type: 'section', text: plain(interrupt.description, 2900) });
  const facts = [state];
  if (interrupt.assignee !== null) facts.push(`Assigned to ${interrupt.assignee.name}`);
  if (interrupt.escalationLevel > 0) facts.push(`Escalated (level ${interrupt.escalationLevel})`);
  const risk = riskLineOf(interrupt);
  if (risk !== null) facts.push(risk);
  blocks.push({ type: 'context', elements: [plain(facts.join(' · '), 2000)] });

  interrupt.actionRequests.slice(0, 20).forEach((action, index) => {
    const described = action.description === null ? '' : `\n${action.description}`;
    blocks.push({
      type: 'section',
      text: plain(`${action.name} ${action.args}${described}`, 2900),
    });
    const decided = interrupt.decisions.find((d) => d.actionName === action.name);
    if (decided !== undefined) {
      blocks.push({
        type: 'context',
        elements: [plain(`${DECIDED[decided.decision] ?? decided.decision} by ${decided.by}`)],
      });
      return;
    }
    if (!open) return;
    const approvals = approvalsLineOf(action);
    if (approvals !== null) blocks.push({ type: 'context', elements: [plain(approvals)] });
    const buttons = (['approve', 'reject'] as const)
      .filter((d) => action.allowedDecisions.includes(d))
      .map((d) => ({
        type: 'button',
        action_id: `interlock_${d}_${index}`,
        text: plain(cut(`${d === 'approve' ? 'Approve' : 'Reject'} ${action.name}`, 75), 75),
        style: d === 'approve' ? 'primary' : 'danger',
        value: JSON.stringify({
          i: interrupt.id,
          a: action.name,
          d,
          g: action.digest ?? '',
        } satisfies SlackButtonValue),
      }));
    if (buttons.length > 0)
      blocks.push({ type: 'actions', block_id: `interlock_action_${index}`, elements: buttons });
  });

  blocks.push({
    type: 'actions',
    block_id: 'interlock_links',
    elements: [
      {
        type: 'button',
        action_id: 'interlock_open',
        text: plain('Open in Interlock', 75),
        url: `${dashboardUrl}/interrupts/${interrupt.id}`,
      },
    ],
  });
  return { text: cut(`${interrupt.title} — ${state}`, 3000), blocks };
}

/** A button's value, or null when it is not one of ours. */
export function readButtonValue(value: unknown): SlackButtonValue | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  try {
    const parsed = JSON.parse(value) as Partial<SlackButtonValue>;
    if (
      typeof parsed.i === 'string' &&
      /^[0-9a-f-]{36}$/i.test(parsed.i) &&
      typeof parsed.a === 'string' &&
      (parsed.d === 'approve' || parsed.d === 'reject') &&
      typeof parsed.g === 'string'
    )
      return { i: parsed.i, a: parsed.a, d: parsed.d, g: parsed.g };
  } catch {
    // not JSON: not ours
  }
  return null;
}
