import type { Interrupt } from '@interlock/sdk';
import type { InterlockBackend } from './backend';
import { waitForDecision } from './wait';

// A backend whose interrupt becomes answered after `answerAfterReads` reads.
function backendAnsweringAfter(answerAfterReads: number): {
  backend: InterlockBackend;
  reads: () => number;
} {
  let reads = 0;
  const backend = {
    getInterrupt: async (id: string) => {
      reads++;
      return { id, status: reads >= answerAfterReads ? 'answered' : 'open' } as Interrupt;
    },
  } as unknown as InterlockBackend;
  return { backend, reads: () => reads };
}

const open = { id: 'i1', status: 'open' } as Interrupt;

describe('waitForDecision', () => {
  it('returns as soon as a read finds it answered', async () => {
    const { backend, reads } = backendAnsweringAfter(2);
    const result = await waitForDecision(backend, open, {
      waitMs: 5_000,
      pollIntervalMs: 10,
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ interrupt: { id: 'i1', status: 'answered' }, stopped: false });
    expect(reads()).toBe(2);
  });

  it('gives up at the deadline with the interrupt still open, reading once more at the end', async () => {
    // Fake timers (and a fake clock): on a loaded machine a real 50 ms timer can fire hundreds
    // of milliseconds late, so counting real pauses says more about the machine than the loop.
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const { backend, reads } = backendAnsweringAfter(Infinity);
      const ticks: number[] = [];
      const readAt: number[] = [];
      const reading = backend.getInterrupt.bind(backend);
      backend.getInterrupt = async (...args: Parameters<InterlockBackend['getInterrupt']>) => {
        readAt.push(Date.now() - 1_000_000);
        return reading(...args);
      };
      let settled = false;
      const waiting = waitForDecision(backend, open, {
        waitMs: 200,
        pollIntervalMs: 50,
        signal: new AbortController().signal,
        onWaiting: async (elapsed) => void ticks.push(elapsed),
      }).finally(() => (settled = true));
      await jest.advanceTimersByTimeAsync(199);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      const result = await waiting;
      expect(result).toEqual({ interrupt: { id: 'i1', status: 'open' }, stopped: false });
      // A progress tick before each pause, a read after each; the last read is at the deadline.
      expect(ticks).toEqual([0, 50, 100, 150]);
      expect(readAt).toEqual([50, 100, 150, 200]);
      expect(reads()).toBe(4);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not wait at all with waitMs 0', async () => {
    const { backend, reads } = backendAnsweringAfter(Infinity);
    const result = await waitForDecision(backend, open, {
      waitMs: 0,
      pollIntervalMs: 50,
      signal: new AbortController().signal,
    });
    expect(result.interrupt).toBe(open);
    expect(reads()).toBe(0);
  });

  it('stops at once when the host shuts down, and says so', async () => {
    // On the fake clock of the test above: the 5 s pause ends at the abort (30 ms), not later.
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const { backend, reads } = backendAnsweringAfter(Infinity);
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 30);
      let settled = false;
      const waiting = waitForDecision(backend, open, {
        waitMs: 10_000,
        pollIntervalMs: 5_000,
        signal: new AbortController().signal,
        stop: stop.signal,
      }).finally(() => (settled = true));
      await jest.advanceTimersByTimeAsync(29);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      expect(await waiting).toMatchObject({ stopped: true, interrupt: { status: 'open' } });
      expect(reads()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
