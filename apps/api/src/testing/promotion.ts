import { Agent, request } from 'node:http';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options?: { type: 'minor' | 'major' }) => void;

function collector(): Collect {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collect;
}

function oldSpaceUsed(): number {
  return (
    getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0
  );
}

/**
 * What `work` leaves for V8's old generation to hold, in MB (issue 28, session 21): `work` once,
 * then two full collections (so every long-lived collection's table is old, as in a service that
 * has run a while), then `work` `times` times and two scavenges. An object that died in the work
 * survives a scavenge only if something in the old generation still points at it, dead or alive,
 * and the second scavenge promotes it. The heap is the test process's: compare with a control
 * that keeps the same objects the known way, and give it rounds.
 */
async function promotedMegabytes(work: () => Promise<unknown>, times = 5): Promise<number> {
  const gc = collector();
  await work();
  gc();
  gc();
  const before = oldSpaceUsed();
  for (let i = 0; i < times; i++) await work();
  await new Promise((resolve) => setImmediate(resolve));
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  return (oldSpaceUsed() - before) / 2 ** 20;
}

/** Where a side's figure is expected: the control's above a bound, the code's below one. */
export type PromotionBound = { above: number } | { below: number };

/** Whether `promoted` is past `bound` on the side it asks. */
export function pastBound(promoted: number, bound: PromotionBound): boolean {
  return 'above' in bound ? promoted > bound.above : promoted < bound.below;
}

/** `promotedMegabytes` in up to three rounds, until one is past the bound on the side asked. */
export async function promotedInRounds(
  work: () => Promise<unknown>,
  until: PromotionBound,
): Promise<number> {
  let promoted = 'above' in until ? -Infinity : Infinity;
  for (let round = 0; round < 3; round++) {
    promoted = await promotedMegabytes(work);
    if (pastBound(promoted, until)) break;
  }
  return promoted;
}

/**
 * Bursts of 80 GETs of `path`, 8 at a time on keep-alive connections (`close` destroys the
 * connections): a promotion test's work over HTTP.
 */
export function requestBursts(
  port: number,
  path: string,
): { burst: () => Promise<unknown>; close: () => void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      })
        .on('error', reject)
        .end();
    });
  return {
    burst: () => Promise.all(Array.from({ length: 80 }, get)),
    close: () => agent.destroy(),
  };
}
