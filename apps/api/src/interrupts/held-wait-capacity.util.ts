/**
 * How many held waits an instance's heap holds (SPEC §8e, issue 37 §6): as shipped, the image's
 * heap cap (192 MB) ran out with 10,000 waits held and the process exited, far below the old fixed
 * default of 20,000 — an instance must refuse a wait (503) before it dies of one.
 */

/**
 * The heap one held wait takes (its request, response and socket as Node and Fastify hold them,
 * Nest's and the wait's own frames): `npx nx run tools:bench-wait-heap` measured 9.4 KB of live
 * objects a wait in session 16 (11.0 KB in session 14, 14.4 KB before issue 37's cuts; heap snapshots, 1,000 waits with the TypeScript
 * SDK's headers); 16 KB leaves room for longer headers and the heap's fragmentation
 * (the image's 192 MB ran out at 10,000 waits: at least 15 KB each there, before the cuts).
 * BENCHMARKS.md, "Waiting agents".
 */
export const HELD_WAIT_HEAP_BYTES = 16 * 1024;

/**
 * The heap kept from held waits: V8's young generation (48 MB of `heap_size_limit` on 64-bit
 * Node, which never holds a long-lived wait), the service's own live heap (about 40 MB idle, 45 MB
 * under full load) and room for the work of a busy instance and its collections.
 */
export const HELD_WAIT_HEAP_RESERVE_BYTES = 128 * 1024 * 1024;

/** The most an instance holds by default, however large its heap (its open files bound it too). */
export const WAITS_MAX_PER_INSTANCE_DEFAULT = 20_000;

/** The held waits a heap of `heapLimitBytes` (`v8.getHeapStatistics().heap_size_limit`) holds: at least 1. */
export function heldWaitsHeapHolds(heapLimitBytes: number): number {
  return Math.max(
    1,
    Math.floor((heapLimitBytes - HELD_WAIT_HEAP_RESERVE_BYTES) / HELD_WAIT_HEAP_BYTES),
  );
}

/** The instance's cap on held waits, and where it comes from. */
export interface InstanceWaitLimit {
  /** The cap (0: off, only when set so). */
  readonly limit: number;
  /** What the heap holds (heldWaitsHeapHolds). */
  readonly heapHolds: number;
  /** `set`: WAITS_MAX_PER_INSTANCE; `heap`: derived from the heap; `default`: the default, which the heap holds. */
  readonly source: 'set' | 'heap' | 'default';
}

/**
 * `WAITS_MAX_PER_INSTANCE` when set (even past what the heap holds: the start-up log warns), else
 * the default or what the heap holds, whichever is less.
 */
export function instanceWaitLimit(
  configured: number | undefined,
  heapLimitBytes: number,
): InstanceWaitLimit {
  const heapHolds = heldWaitsHeapHolds(heapLimitBytes);
  if (configured !== undefined) return { limit: configured, heapHolds, source: 'set' };
  return heapHolds < WAITS_MAX_PER_INSTANCE_DEFAULT
    ? { limit: heapHolds, heapHolds, source: 'heap' }
    : { limit: WAITS_MAX_PER_INSTANCE_DEFAULT, heapHolds, source: 'default' };
}
