import { Writable } from 'node:stream';
import { getHeapStatistics } from 'node:v8';
import pino from 'pino';
import type { AppConfig } from '../config/app-config';
import { InProcessNotificationBus } from '../notifications/notification-bus';
import {
  HELD_WAIT_HEAP_BYTES,
  HELD_WAIT_HEAP_RESERVE_BYTES,
  heldWaitsHeapHolds,
  instanceWaitLimit,
  WAITS_MAX_PER_INSTANCE_DEFAULT,
} from './held-wait-capacity.util';
import { INSTANCE_WAIT_CAP_MESSAGE, InterruptWaits } from './interrupt-waits';

const MIB = 2 ** 20;
const ORG = '00000000-0000-4000-8000-000000000001';

describe('held waits and the heap (SPEC §8e)', () => {
  it('a heap holds what is past its reserve, a wait at a time, and at least one', () => {
    const heap = HELD_WAIT_HEAP_RESERVE_BYTES + 1_000 * HELD_WAIT_HEAP_BYTES;
    expect(heldWaitsHeapHolds(heap)).toBe(1_000);
    expect(heldWaitsHeapHolds(heap - 1)).toBe(999);
    expect(heldWaitsHeapHolds(HELD_WAIT_HEAP_RESERVE_BYTES)).toBe(1);
    expect(heldWaitsHeapHolds(64 * MIB)).toBe(1);
  });

  it('without WAITS_MAX_PER_INSTANCE: what the heap holds, at most 20,000; when set: the setting', () => {
    // The production image's heap limit before issue 37: --max-old-space-size=192 (240 MB).
    const image = 240 * MIB;
    expect(instanceWaitLimit(undefined, image)).toEqual({
      limit: heldWaitsHeapHolds(image),
      heapHolds: heldWaitsHeapHolds(image),
      source: 'heap',
    });
    expect(heldWaitsHeapHolds(image)).toBeLessThan(10_000);
    // Its heap limit now (--max-old-space-size=256: 304 MB) holds issue 37's 10,000 waiting agents.
    expect(heldWaitsHeapHolds(304 * MIB)).toBeGreaterThanOrEqual(10_000);
    const large = 4096 * MIB;
    expect(instanceWaitLimit(undefined, large)).toEqual({
      limit: WAITS_MAX_PER_INSTANCE_DEFAULT,
      heapHolds: heldWaitsHeapHolds(large),
      source: 'default',
    });
    expect(instanceWaitLimit(50_000, image)).toMatchObject({ limit: 50_000, source: 'set' });
    expect(instanceWaitLimit(0, image)).toMatchObject({ limit: 0, source: 'set' });
  });

  describe('at start', () => {
    function started(perInstance: number | undefined) {
      const lines: { level: number; msg: string; waitsMaxPerInstance: number }[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString()));
            done();
          },
        }),
      );
      const config = { waits: { perOrganisation: 0, perInstance } } as unknown as AppConfig;
      const waits = new InterruptWaits(new InProcessNotificationBus(), logger, config);
      return { waits, lines };
    }
    const heap = getHeapStatistics().heap_size_limit;

    it('logs the limit it derived from the heap, and refuses 503 past it', () => {
      const { waits, lines } = started(undefined);
      const limit = Math.min(heldWaitsHeapHolds(heap), WAITS_MAX_PER_INSTANCE_DEFAULT);
      expect(lines).toEqual([
        expect.objectContaining({
          level: 30,
          msg: `held waits: at most ${limit} on this instance`,
          waitsMaxPerInstance: limit,
        }),
      ]);
      for (let i = 0; i < limit; i++) expect(waits.register(ORG, `${i}`).refusal).toBeUndefined();
      expect(waits.register(ORG, 'past').refusal).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: INSTANCE_WAIT_CAP_MESSAGE,
      });
    });

    it('warns when WAITS_MAX_PER_INSTANCE is past what the heap holds, or 0, and keeps it', () => {
      const past = heldWaitsHeapHolds(heap) + 1;
      for (const perInstance of [past, 0]) {
        const { lines } = started(perInstance);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ level: 40, waitsMaxPerInstance: perInstance });
        expect(lines[0].msg).toContain('past them the process may run out of heap and exit');
      }
      const { lines } = started(Math.max(1, heldWaitsHeapHolds(heap) - 1));
      expect(lines[0]).toMatchObject({ level: 30 });
    });
  });
});
