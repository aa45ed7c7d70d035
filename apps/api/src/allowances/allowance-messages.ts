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

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** A quota in bytes as people read it: `100 MiB`, `10 GiB`, else the exact count (`2,000 bytes`). */
export function bytesText(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', GIB],
    ['MiB', MIB],
    ['KiB', KIB],
  ] as const) {
    if (bytes >= size && bytes % size === 0)
      return `${(bytes / size).toLocaleString('en-GB')} ${unit}`;
  }
  return `${bytes.toLocaleString('en-GB')} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** A retention as people read it: `90 days`, `12 hours`, `30 minutes`. */
export function durationText(ms: number): string {
  for (const [unit, size] of [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ] as const) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return `${n.toLocaleString('en-GB')} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${Math.round(ms / 1000).toLocaleString('en-GB')} seconds`;
}

export interface ExhaustedQuota {
  plan: Plan;
  included: number;
  /** What the Pro plan includes, named when the organisation is on Free. */
  proIncludes: number;
}

/**
 * 402 SESSION_STORAGE_EXHAUSTED (SPEC §4, §8): the plan's bytes of stored session-message
 * content are used; the retention frees them as messages age.
 */
export function sessionStorageExhaustedMessage(
  a: ExhaustedQuota & { retentionMs: number },
): string {
  const upgrade = a.plan === 'free' ? `; the Pro plan includes ${bytesText(a.proIncludes)}` : '';
  return (
    `This organisation has used its included session-message storage ` +
    `(${bytesText(a.included)} on the ${PLAN_NAMES[a.plan]} plan). Messages are deleted ` +
    `${durationText(a.retentionMs)} after they were appended, which frees space${upgrade}.`
  );
}

/** 402 ACTIVE_SESSIONS_EXHAUSTED (SPEC §4, §8): the plan's sessions active at once are open. */
export function activeSessionsExhaustedMessage(a: ExhaustedQuota): string {
  const n = (x: number) => x.toLocaleString('en-GB');
  const upgrade =
    a.plan === 'free' ? `; the Pro plan includes ${n(a.proIncludes)} active sessions` : '';
  return (
    `This organisation has as many active sessions as its plan includes ` +
    `(${n(a.included)} on the ${PLAN_NAMES[a.plan]} plan). End a session to start another${upgrade}.`
  );
}
