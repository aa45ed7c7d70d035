import type { Plan } from '@interlock/domain';

const PLAN_NAMES: Record<Plan, string> = { free: 'Free', pro: 'Pro' };

export interface ExhaustedAllowance {
  plan: Plan;
  included: number;
  /** The first day of next month (UTC), YYYY-MM-DD. */
  renewsOn: string;
  /** What the Pro plan includes, named when the organisation is on Free. */
  proIncludes: number;
}

function text(what: 'messages' | 'agent hours', a: ExhaustedAllowance): string {
  const n = (x: number) => x.toLocaleString('en-GB');
  const upgrade =
    a.plan === 'free' ? `; the Pro plan includes ${n(a.proIncludes)} ${what} a month` : '';
  return (
    `This organisation has used its included ${what} for the month ` +
    `(${n(a.included)} on the ${PLAN_NAMES[a.plan]} plan). The allowance renews on ${a.renewsOn} (UTC)${upgrade}.`
  );
}

/** 402 MESSAGES_ALLOWANCE_EXHAUSTED: begins with the exact words of SPEC §4. */
export const messagesExhaustedMessage = (a: ExhaustedAllowance): string => text('messages', a);

/** 402 AGENT_HOURS_ALLOWANCE_EXHAUSTED: begins with the exact words of SPEC §4. */
export const agentHoursExhaustedMessage = (a: ExhaustedAllowance): string => text('agent hours', a);
