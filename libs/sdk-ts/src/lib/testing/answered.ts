// An interrupt as the service answers one a bridge opened: the actions as the bridge sent them,
// each action request and decision carrying the digest the service computes (SPEC §8e).
import { actionDigest } from '../action-digest';
import type { Decision, Interrupt, InterruptCreateParams } from '../types';

export const ANSWERED_INTERRUPT_ID = '6f1c1f9e-3b1e-4d2a-9a53-0c2b8f3e1a77';

/** A member's decision on `actionName` (no digest: `answeredAs` adds it). */
export const decided = (
  actionName: string,
  decision: 'approve' | 'reject',
  message: string | null = null,
): Decision =>
  ({
    id: actionName,
    actionName,
    decision,
    editedArgs: null,
    editedName: null,
    message,
    decidedBy: { type: 'member', id: 'm', name: 'Ada' },
    decidedAt: '',
  }) as Decision;

/** The interrupt opened with `params`, in `status`, with `decisions` (each given its action's digest). */
export async function answeredAs(
  params: InterruptCreateParams,
  status: string,
  decisions: Decision[] = [],
): Promise<Interrupt> {
  const actionRequests = await Promise.all(
    params.actionRequests.map(async (a) => ({
      ...a,
      actionDigest: await actionDigest(ANSWERED_INTERRUPT_ID, a.name, a.args),
    })),
  );
  return {
    id: ANSWERED_INTERRUPT_ID,
    metadata: params.metadata ?? null,
    status,
    actionRequests,
    decisions: decisions.map((d) => ({
      ...d,
      actionDigest: actionRequests.find((a) => a.name === d.actionName)?.actionDigest,
    })),
  } as unknown as Interrupt;
}

/** `interrupt` with the decision on `actionName` carrying another digest (as if changed on the way). */
export function forged(interrupt: Interrupt, actionName: string): Interrupt {
  return {
    ...interrupt,
    decisions: interrupt.decisions.map((d) =>
      d.actionName === actionName ? { ...d, actionDigest: 'f'.repeat(64) } : d,
    ),
  };
}
