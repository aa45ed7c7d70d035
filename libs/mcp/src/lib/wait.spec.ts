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
    const { backend } = backendAnsweringAfter(Infinity);
    const ticks: number[] = [];
    const started = Date.now();
    const result = await waitForDecision(backend, open, {
      waitMs: 200,
      pollIntervalMs: 50,
      signal: new AbortController().signal,
      onWaiting: async (elapsed) => void ticks.push(elapsed),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(result.interrupt.status).toBe('open');
    expect(ticks[0]).toBe(0);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
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
    const { backend } = backendAnsweringAfter(Infinity);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 30);
    const started = Date.now();
    const result = await waitForDecision(backend, open, {
      waitMs: 10_000,
      pollIntervalMs: 5_000,
      signal: new AbortController().signal,
      stop: stop.signal,
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ stopped: true, interrupt: { status: 'open' } });
  });
});
