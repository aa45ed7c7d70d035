import { call, decideInterrupt, type InterruptResponse } from '@interlock/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { invalidateInterrupt, undecidedActions } from './interrupts.queries';

/**
 * Undo for approvals made from the inbox (`a`, bulk approve): the approval is held in this
 * browser for `UNDO_SECONDS` and only then sent. Undo within the window sends nothing, so the
 * agent never sees a decision that was taken back and the audit log records exactly the
 * decisions that were made — no retraction entries, no server-side grace period. If the page
 * is closed, reloaded or hidden inside the window, what is held is sent at once (`keepalive`
 * requests on `pagehide`, and on `visibilitychange` to hidden: a phone switching apps never
 * fires `pagehide` and may discard the page unseen): closing the tab does not silently undo.
 * A hold is sent once: the first of these marks it `sending`, the others pass it by.
 */
export const UNDO_SECONDS = 5;

export interface HeldApproval {
  /** One hold: a single interrupt (`a`) or a bulk approval. */
  key: number;
  interrupts: InterruptResponse[];
  /** `held` during the undo window; `sending` once the requests are on their way. */
  state: 'held' | 'sending';
}

export interface HoldCallbacks {
  /** Every approval of the hold was recorded. */
  onSent: (approved: InterruptResponse[]) => void;
  /** Some were not (a colleague decided first, a network error…); the rest were recorded. */
  onFailed: (
    failures: { interrupt: InterruptResponse; error: unknown }[],
    approved: InterruptResponse[],
  ) => void;
}

let held: HeldApproval[] = [];
let nextKey = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const callbacks = new Map<number, HoldCallbacks>();
/** Each hold's query client, to refresh the lists once a hold sent early (page hidden) is done. */
const clients = new Map<number, QueryClient>();
const listeners = new Set<() => void>();
let hiddenIds: ReadonlySet<string> = new Set();

function publish(next: HeldApproval[]): void {
  held = next;
  hiddenIds = new Set(held.flatMap((h) => h.interrupts.map((i) => i.id)));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Approves every undecided action of one interrupt. `keepalive` sends them all at once, for a page that is going away. */
async function approveInterrupt(interrupt: InterruptResponse, keepalive: boolean): Promise<void> {
  const actions = undecidedActions(interrupt);
  const decide = (actionName: string) =>
    call(
      decideInterrupt({
        path: { id: interrupt.id },
        body: { actionName, decision: 'approve' },
        ...(keepalive ? { keepalive: true } : {}),
      }),
    );
  if (keepalive) {
    await Promise.all(actions.map((a) => decide(a.name)));
    return;
  }
  for (const action of actions) await decide(action.name);
}

async function send(
  key: number,
  queryClient: QueryClient | null,
  keepalive: boolean,
): Promise<void> {
  const hold = held.find((h) => h.key === key);
  clearTimeout(timers.get(key));
  timers.delete(key);
  if (hold === undefined || hold.state === 'sending') return;
  publish(held.map((h) => (h.key === key ? { ...h, state: 'sending' } : h)));
  const failures: { interrupt: InterruptResponse; error: unknown }[] = [];
  const approved: InterruptResponse[] = [];
  const approveOne = async (interrupt: InterruptResponse) => {
    try {
      await approveInterrupt(interrupt, keepalive);
      approved.push(interrupt);
    } catch (error) {
      failures.push({ interrupt, error });
    }
  };
  // One at a time normally (the order people chose); all at once when the page is going away.
  if (keepalive) await Promise.all(hold.interrupts.map(approveOne));
  else for (const interrupt of hold.interrupts) await approveOne(interrupt);
  // The rows stay hidden until the lists are fresh, so a row does not flash back before it goes.
  if (queryClient !== null) await invalidateInterrupt(queryClient);
  const done = callbacks.get(key);
  callbacks.delete(key);
  clients.delete(key);
  publish(held.filter((h) => h.key !== key));
  if (failures.length === 0) done?.onSent(approved);
  else done?.onFailed(failures, approved);
}

/** Holds the approval of these interrupts for the undo window, then sends it. Returns the hold's key. */
export function holdApproval(
  interrupts: InterruptResponse[],
  queryClient: QueryClient,
  on: HoldCallbacks,
): number {
  const key = nextKey++;
  callbacks.set(key, on);
  clients.set(key, queryClient);
  publish([...held, { key, interrupts, state: 'held' }]);
  timers.set(
    key,
    setTimeout(() => void send(key, queryClient, false), UNDO_SECONDS * 1000),
  );
  return key;
}

/** Takes a hold back before it is sent: nothing reaches the service. Undefined when it was already on its way. */
export function undoApproval(key: number): HeldApproval | undefined {
  const hold = held.find((h) => h.key === key);
  if (hold === undefined || hold.state !== 'held') return undefined;
  clearTimeout(timers.get(key));
  timers.delete(key);
  callbacks.delete(key);
  clients.delete(key);
  publish(held.filter((h) => h.key !== key));
  return hold;
}

/** The most recent hold still inside its undo window (`z` in the inbox takes it back). */
export function latestHeld(): HeldApproval | undefined {
  return [...held].reverse().find((h) => h.state === 'held');
}

/** The ids of interrupts whose approval is held or being sent: the inbox does not show them. */
export function useHeldInterruptIds(): ReadonlySet<string> {
  return useSyncExternalStore(subscribe, () => hiddenIds);
}

/** Sends every hold still inside its window, at once, as requests that outlive the page. */
function sendAllNow(): void {
  for (const h of held) if (h.state === 'held') void send(h.key, clients.get(h.key) ?? null, true);
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', sendAllNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') sendAllNow();
  });
}
