import type { Interrupt } from '@interlock/sdk';
import type { InterlockBackend } from './backend';

export interface WaitOptions {
  /** How long to wait in all. */
  waitMs: number;
  /** Time between reads of the interrupt. */
  pollIntervalMs: number;
  /** The MCP request's signal: the client cancelled, or the connection closed. */
  signal: AbortSignal;
  /** The host is shutting down: stop waiting and report what there is. */
  stop?: AbortSignal;
  /** Called before each pause with the milliseconds waited so far (progress notifications). */
  onWaiting?: (elapsedMs: number) => Promise<void>;
}

export interface WaitResult {
  interrupt: Interrupt;
  /** True when the wait ended early because the host is shutting down. */
  stopped: boolean;
}

/**
 * Reads the interrupt until it is answered or `waitMs` has passed, whichever is first. Ending
 * by time (or by cancellation, or shutdown) returns the interrupt as last read — still `open`:
 * the caller reports it pending, never approved. Errors of a read (a revoked key answers 401 on
 * the next read) propagate.
 */
export async function waitForDecision(
  backend: InterlockBackend,
  interrupt: Interrupt,
  options: WaitOptions,
): Promise<WaitResult> {
  const started = Date.now();
  const deadline = started + options.waitMs;
  let current = interrupt;
  const ended = () => options.signal.aborted || options.stop?.aborted === true;
  // Every status but open is final (answered, expired, withdrawn: SPEC §8e).
  while (current.status === 'open' && !ended()) {
    const now = Date.now();
    if (now >= deadline) break;
    await options.onWaiting?.(now - started);
    await pause(Math.min(options.pollIntervalMs, deadline - now), [options.signal, options.stop]);
    if (ended()) break;
    current = await backend.getInterrupt(current.id, { signal: options.signal });
  }
  return {
    interrupt: current,
    stopped: current.status === 'open' && options.stop?.aborted === true,
  };
}

/** Sleeps `ms`, or less when one of the signals aborts. */
function pause(ms: number, signals: (AbortSignal | undefined)[]): Promise<void> {
  return new Promise((resolve) => {
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    if (live.some((s) => s.aborted)) return resolve();
    const done = () => {
      clearTimeout(timer);
      for (const s of live) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of live) s.addEventListener('abort', done, { once: true });
  });
}
