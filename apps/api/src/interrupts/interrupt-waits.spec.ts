import pino from 'pino';
import { InProcessNotificationBus } from '../notifications/notification-bus';
import {
  INTERRUPT_SETTLED_CHANNEL,
  InterruptWaits,
  WAIT_READ_BATCH_MAX,
  WAIT_READ_GATHER_MS,
  WAIT_READS_AT_ONCE,
  WAIT_END_TICK_MS,
  WAIT_END_SLOT_SPARE,
  WAIT_KNOWN_OPEN_MS,
  WaitEnds,
  WaitReadBatches,
  waitClock,
  waitEarliestEndMs,
  type Waiter,
} from './interrupt-waits';

const ORG = '00000000-0000-4000-8000-000000000001';
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

function setUp() {
  const bus = new InProcessNotificationBus();
  const waits = new InterruptWaits(bus, pino({ enabled: false }));
  return { bus, waits };
}

/** Waits on a bus that reconnects when told to (`reconnect`: the in-process one never does). */
function setUpReconnecting() {
  const bus = new InProcessNotificationBus();
  const resyncs: (() => void)[] = [];
  jest.spyOn(bus, 'onResync').mockImplementation((...args: unknown[]) => {
    resyncs.push(args[0] as () => void);
    return () => undefined;
  });
  const reconnect = () => resyncs.forEach((resync) => resync());
  return { waits: new InterruptWaits(bus, pino({ enabled: false })), reconnect };
}

describe('InterruptWaits', () => {
  // On a whole second: the slots long holds' ends are counted in (WAIT_END_SLOT_MS) are the test's seconds.
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('wakes the waits on the announced interrupt only, and releases them', async () => {
    const { waits } = setUp();
    const onA = waits.register(ORG, A);
    const onB = waits.register(ORG, B);
    const a = onA.until(60_000);
    const b = onB.until(60_000);
    expect(waits.size).toBe(2);
    await waits.announceSettled(ORG, A);
    await expect(a).resolves.toBe('settled');
    expect(waits.size).toBe(1);
    jest.advanceTimersByTime(60_000);
    await expect(b).resolves.toBe('elapsed');
    expect(waits.size).toBe(0);
  });

  it('several waits on one interrupt: each is woken, one released early leaves the others held', async () => {
    const { waits } = setUp();
    const first = waits.register(ORG, A);
    const second = waits.register(ORG, A);
    const third = waits.register(ORG, A);
    const held = [first.until(60_000), third.until(60_000)];
    second.release();
    expect(waits.size).toBe(2);
    await waits.announceSettled(ORG, A);
    await expect(Promise.all(held)).resolves.toEqual(['settled', 'settled']);
    expect(waits.size).toBe(0);
    // Alone again on that interrupt: held, and woken the same way.
    const again = waits.register(ORG, A).until(60_000);
    expect(waits.size).toBe(1);
    await waits.announceSettled(ORG, A);
    await expect(again).resolves.toBe('settled');
    expect(waits.size).toBe(0);
  });

  it('announces several interrupts settled at once (a batch of expiries): each of their waits wakes, no other', async () => {
    const { waits } = setUp();
    const C = '00000000-0000-4000-8000-00000000000c';
    const held = [A, B, C].map((id) => waits.register(ORG, id).until(60_000));
    await waits.announceAllSettled(ORG, [A, C]);
    await expect(held[0]).resolves.toBe('settled');
    await expect(held[2]).resolves.toBe('settled');
    expect(waits.size).toBe(1);
    jest.advanceTimersByTime(60_000);
    await expect(held[1]).resolves.toBe('elapsed');
  });

  it('an announcement between registering and waiting is not lost', async () => {
    const { bus, waits } = setUp();
    const wait = waits.register(ORG, A);
    await bus.publish(INTERRUPT_SETTLED_CHANNEL, `${ORG}:${A}`);
    await expect(wait.until(60_000)).resolves.toBe('settled');
    wait.release();
    expect(waits.size).toBe(0);
  });

  it('the same interrupt in another organisation is another key', async () => {
    const { waits } = setUp();
    const wait = waits.register(ORG, A);
    const held = wait.until(1_000);
    await waits.announceSettled('00000000-0000-4000-8000-000000000002', A);
    jest.advanceTimersByTime(1_000);
    await expect(held).resolves.toBe('elapsed');
  });

  it('a client that leaves releases its wait at once; one already gone is not held', async () => {
    const { waits } = setUp();
    let listener: Waiter | undefined;
    const client = {
      left: false,
      onLeave: (wait: Waiter | undefined) => (listener = wait),
    };
    const held = waits.register(ORG, A).until(60_000, client);
    client.left = true;
    listener?.wake('disconnected');
    await expect(held).resolves.toBe('disconnected');
    expect(listener).toBeUndefined();
    expect(waits.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    const wait = waits.register(ORG, B);
    await expect(wait.until(60_000, client)).resolves.toBe('disconnected');
    wait.release();
    expect(waits.size).toBe(0);
  });

  it('stopping ends every wait, and later waits end at once', async () => {
    const { waits } = setUp();
    const held = [waits.register(ORG, A).until(60_000), waits.register(ORG, B).until(60_000)];
    waits.stopWaiting();
    await expect(Promise.all(held)).resolves.toEqual(['stopping', 'stopping']);
    await expect(waits.register(ORG, A).until(60_000)).resolves.toBe('stopping');
    expect(waits.size).toBe(0);
  });

  it('a wait that ran its time leaves its interrupt known open to one next wait; one woken otherwise does not', async () => {
    const { bus, waits } = setUp();
    const runOut = async (id: string, organisationId = ORG) => {
      const wait = waits.register(organisationId, id);
      const held = wait.until(1_000);
      jest.advanceTimersByTime(1_000);
      await expect(held).resolves.toBe('elapsed');
      wait.release();
    };
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    await runOut(A);
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(true);
    // Taken: the next wait's own time running out marks it again.
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    // Another organisation's interrupt by the same id is not known by it.
    await runOut(A);
    expect(waits.takeKnownOpen(`00000000-0000-4000-8000-000000000002:${A}`)).toBe(false);
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(true);
    // Its announcement after the wait ended: not known open.
    await runOut(A);
    await waits.announceSettled(ORG, A);
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    // Nor when its announcement failed (the bus's pool timed out): forgotten on this instance.
    await runOut(A);
    await runOut(B);
    const publish = jest
      .spyOn(bus, 'publishAll')
      .mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'));
    await waits.announceAllSettled(ORG, [A]);
    publish.mockRestore();
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    expect(waits.takeKnownOpen(`${ORG}:${B}`)).toBe(true);
    // Nor by a wait that the announcement woke, one whose client left, or one released unheld.
    const settled = waits.register(ORG, A);
    const woken = settled.until(60_000);
    await waits.announceSettled(ORG, A);
    await expect(woken).resolves.toBe('settled');
    let listener: Waiter | undefined;
    const client = { left: false, onLeave: (wait: Waiter | undefined) => (listener = wait) };
    const left = waits.register(ORG, B).until(60_000, client);
    listener?.wake('disconnected');
    await expect(left).resolves.toBe('disconnected');
    waits.register(ORG, B).release();
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    expect(waits.takeKnownOpen(`${ORG}:${B}`)).toBe(false);
    // An answer read not open (a change whose announcement is still on its way) forgets it.
    await runOut(B);
    waits.forgetOpen(`${ORG}:${B}`);
    expect(waits.takeKnownOpen(`${ORG}:${B}`)).toBe(false);
  });

  it('known open for WAIT_KNOWN_OPEN_MS at least and twice that at most; never while the bus is unhealthy', async () => {
    const { bus, waits } = setUp();
    const runOut = async (id: string) => {
      const held = waits.register(ORG, id).until(1_000);
      jest.advanceTimersByTime(1_000);
      await held;
    };
    await runOut(A);
    jest.advanceTimersByTime(WAIT_KNOWN_OPEN_MS - 1);
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(true);
    await runOut(A);
    jest.advanceTimersByTime(2 * WAIT_KNOWN_OPEN_MS);
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    // Whenever the generations turn, a mark is gone 2 × WAIT_KNOWN_OPEN_MS after it was made, even
    // when another mark turns them just before (the turns keep their grid).
    for (const offset of [0, 1, WAIT_KNOWN_OPEN_MS / 2, WAIT_KNOWN_OPEN_MS - 1]) {
      jest.advanceTimersByTime(offset);
      await runOut(A);
      jest.advanceTimersByTime(2 * WAIT_KNOWN_OPEN_MS - 1 - 1_000);
      await runOut(B);
      jest.advanceTimersByTime(1);
      expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
      expect(waits.takeKnownOpen(`${ORG}:${B}`)).toBe(true);
    }
    // A mark made or taken while the bus may be missing announcements is not trusted.
    const healthy = jest.spyOn(bus, 'healthy', 'get').mockReturnValue(false);
    await runOut(A);
    healthy.mockReturnValue(true);
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    await runOut(A);
    healthy.mockReturnValue(false);
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    healthy.mockRestore();
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
  });

  it('release without waiting unregisters (idempotently)', () => {
    const { waits } = setUp();
    const wait = waits.register(ORG, A);
    wait.release();
    wait.release();
    expect(waits.size).toBe(0);
  });

  it('one long hold and a few begun together run their full time; a short one ends on time whatever the load', async () => {
    const { waits } = setUp();
    const ended: string[] = [];
    const hold = (id: string, ms: number, name: string) =>
      void waits
        .register(ORG, id)
        .until(ms)
        .then((o) => ended.push(`${name} ${o}`));
    for (let i = 0; i < WAIT_END_SLOT_SPARE; i++) hold(`${A}-${i}`, 60_000, 'long');
    hold(B, 10_000, 'short');
    await jest.advanceTimersByTimeAsync(9_999);
    expect(ended).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(ended).toEqual(['short elapsed']);
    await jest.advanceTimersByTimeAsync(49_999);
    expect(ended).toEqual(['short elapsed']);
    await jest.advanceTimersByTimeAsync(1);
    expect(ended).toHaveLength(1 + WAIT_END_SLOT_SPARE);
    expect(waits.size).toBe(0);
  });

  it('levels a herd of long holds begun together over the last half of their time, and they do not end together again', async () => {
    const { waits } = setUp();
    const herd = 3_000;
    const start = Date.now();
    const endedAt: number[] = [];
    // Each agent asks again as soon as its hold ends, as the SDK does after a full wait.
    const agent = async (i: number) => {
      for (let round = 0; round < 2; round++) {
        const wait = waits.register(ORG, `${A}-${i}`);
        await wait.until(60_000);
        endedAt.push(Date.now() - start);
      }
    };
    for (let i = 0; i < herd; i++) void agent(i);
    await jest.advanceTimersByTimeAsync(29_999);
    expect(endedAt).toEqual([]);
    await jest.advanceTimersByTimeAsync(30_001);
    const first = endedAt.splice(0);
    expect(first).toHaveLength(herd);
    const perSecond = (ends: number[]) => {
      const counts = new Map<number, number>();
      for (const at of ends)
        counts.set(Math.floor(at / 1000), (counts.get(Math.floor(at / 1000)) ?? 0) + 1);
      return counts;
    };
    // Spread over seconds 30 … 60, none holding more than an even share and a little.
    const firstSeconds = perSecond(first);
    expect(Math.min(...firstSeconds.keys())).toBeGreaterThanOrEqual(30);
    expect(Math.max(...firstSeconds.values())).toBeLessThanOrEqual(
      Math.ceil(herd / 30) + WAIT_END_SLOT_SPARE,
    );
    // The second round: each hold at least 30 s after its re-ask, and still spread.
    await jest.advanceTimersByTimeAsync(60_000);
    expect(endedAt).toHaveLength(herd);
    expect(Math.min(...endedAt)).toBeGreaterThanOrEqual(Math.min(...first) + 30_000);
    expect(Math.max(...perSecond(endedAt).values())).toBeLessThanOrEqual(
      Math.ceil(herd / 30) + WAIT_END_SLOT_SPARE,
    );
    expect(waits.size).toBe(0);
    // 6,000 holds on fake timers: about a second of CPU when the machine is idle, several when it is not
    // (it ran past Jest's default 5 s at load 50). Nothing here is timed: the bound only stops a hang.
  }, 60_000);

  it('a hold that ends otherwise gives its slot back: the next one runs its full time', async () => {
    const { waits } = setUp();
    const ended: number[] = [];
    const start = Date.now();
    // Fill the slot of "60 s from now" past its share (the spare, and one over).
    const held = Array.from({ length: WAIT_END_SLOT_SPARE }, (_, i) =>
      waits.register(ORG, `${A}-${i}`),
    );
    for (const wait of held) void wait.until(60_000);
    // Woken by their decision: their slot is free again.
    for (let i = 0; i < WAIT_END_SLOT_SPARE; i++) await waits.announceSettled(ORG, `${A}-${i}`);
    await jest.advanceTimersByTimeAsync(0);
    expect(waits.size).toBe(0);
    const late = Array.from({ length: WAIT_END_SLOT_SPARE }, (_, i) =>
      waits.register(ORG, `${B}-${i}`),
    );
    for (const wait of late) void wait.until(60_000).then(() => ended.push(Date.now() - start));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(ended).toEqual(Array.from({ length: WAIT_END_SLOT_SPARE }, () => 60_000));
  });

  it('WaitEnds: a hold under 20 s is not levelled; a long one ends within the last half of its time', () => {
    const ends = new WaitEnds(() => 0.5);
    expect(ends.schedule(1_000_000, 19_999)).toEqual({ at: 1_019_999, slot: undefined });
    expect(waitEarliestEndMs(60_000)).toBe(30_000);
    expect(waitEarliestEndMs(19_999)).toBe(19_999);
    const at: number[] = [];
    for (let i = 0; i < 2_000; i++) at.push(ends.schedule(1_000_000, 20_000).at - 1_000_000);
    expect(ends.size).toBe(2_000);
    expect(Math.min(...at)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...at)).toBe(20_000);
  });

  it('WaitEnds: a long hold ends on a tick of WAIT_END_TICK_MS, from half its time to its full time, at most one tick early alone', () => {
    let r = 0;
    // Moments spread over each second, begun at instants that are not on the grid.
    const ends = new WaitEnds(() => (r = (r + 0.137) % 1));
    const held: { now: number; at: number }[] = [];
    for (let i = 0; i < 3_000; i++) {
      const now = 1_000_123 + i * 7;
      held.push({ now, at: ends.schedule(now, 60_000).at });
    }
    expect(held.filter(({ at }) => at % WAIT_END_TICK_MS !== 0)).toEqual([]);
    const ms = held.map(({ now, at }) => at - now);
    expect(Math.min(...ms)).toBeGreaterThanOrEqual(30_000);
    expect(Math.max(...ms)).toBeLessThanOrEqual(60_000);
    // Levelled early for the most part; and as few ends as ticks, not one a hold.
    expect(ms.filter((m) => m <= 60_000 - WAIT_END_TICK_MS).length).toBeGreaterThan(1_000);
    const ticks = new Set(held.map(({ at }) => at));
    expect(ticks.size).toBeLessThanOrEqual((30_000 + 3_000 * 7) / WAIT_END_TICK_MS + 1);
    // One hold alone (a fresh count) runs its full time but the part of a tick.
    const alone = new WaitEnds(() => 0.5);
    for (const now of [2_000_000, 2_000_001, 2_000_999]) {
      const { at } = alone.schedule(now, 60_000);
      expect(at % WAIT_END_TICK_MS).toBe(0);
      expect(at).toBeLessThanOrEqual(now + 60_000);
      expect(at).toBeGreaterThan(now + 60_000 - WAIT_END_TICK_MS);
      alone.release(Math.floor((now + 60_000) / 1000));
    }
  });

  it('long holds end on ticks, one timer a tick; a short one keeps its own exact time', async () => {
    // Off the grid: the holds begin at instants that are not ticks (of the monotonic clock, waitClock).
    await jest.advanceTimersByTimeAsync(1_000 - (waitClock() % 1_000) + 123);
    const { waits } = setUp();
    const ended: { i: number; at: number; begun: number }[] = [];
    // A few (under WAIT_END_SLOT_SPARE a second and length), so none is levelled early.
    for (let i = 0; i < 16; i++) {
      const begun = waitClock();
      void waits
        .register(ORG, `${A}-${i}`)
        .until(i % 2 === 0 ? 60_000 : 25_000)
        .then(() => ended.push({ i, at: waitClock(), begun }));
      await jest.advanceTimersByTimeAsync(37);
    }
    const shortBegun = waitClock();
    let shortEnded = 0;
    void waits
      .register(ORG, B)
      .until(10_000)
      .then(() => (shortEnded = waitClock()));
    // 16 holds begun over 0.6 s, of two lengths: a few ticks, each under one timer, and the short hold's own.
    expect(waits.pendingTicks).toBeGreaterThanOrEqual(2);
    expect(waits.pendingTicks).toBeLessThanOrEqual(4);
    expect(jest.getTimerCount()).toBe(waits.pendingTicks + 1);
    await jest.advanceTimersByTimeAsync(61_000);
    expect(shortEnded - shortBegun).toBe(10_000);
    expect(ended).toHaveLength(16);
    for (const { i, at, begun } of ended) {
      const ms = i % 2 === 0 ? 60_000 : 25_000;
      expect(at % WAIT_END_TICK_MS).toBe(0);
      expect(at - begun).toBeLessThanOrEqual(ms);
      expect(at - begun).toBeGreaterThan(ms - WAIT_END_TICK_MS);
    }
    expect(waits.pendingTicks).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a step of the wall clock neither stretches a hold past N nor cuts it below N/2', async () => {
    const { waits } = setUp();
    const ended: { ms: number; after: number }[] = [];
    const hold = (id: string, ms: number) => {
      const begun = performance.now();
      void waits
        .register(ORG, id)
        .until(ms)
        .then(() => ended.push({ ms, after: performance.now() - begun }));
    };
    // A 60 s hold, then the wall clock stepped 40 s forward: a 20 s hold begun now ends at the
    // same wall-clock second as the first, but must not wait for the first's tick (40 s later).
    hold(A, 60_000);
    jest.setSystemTime(Date.now() + 40_000);
    hold(B, 20_000);
    // And stepped 50 s back: a 60 s hold begun now must not end 10 s from now.
    jest.setSystemTime(Date.now() - 50_000);
    hold(`${A}-2`, 60_000);
    await jest.advanceTimersByTimeAsync(61_000);
    expect(ended).toHaveLength(3);
    for (const { ms, after } of ended) {
      expect(after).toBeLessThanOrEqual(ms);
      expect(after).toBeGreaterThanOrEqual(ms / 2);
    }
  });

  it("a wait woken before its tick leaves the tick's list; the tick's last one takes its timer", async () => {
    const { waits } = setUp();
    const outcomes: string[] = [];
    const hold = (id: string) =>
      void waits
        .register(ORG, id)
        .until(60_000)
        .then((o) => outcomes.push(`${id} ${o}`));
    hold(A);
    hold(B);
    hold(`${A}-2`);
    expect([waits.pendingTicks, jest.getTimerCount()]).toEqual([1, 1]);
    await waits.announceSettled(ORG, B);
    await jest.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual([`${B} settled`]);
    expect([waits.pendingTicks, jest.getTimerCount()]).toEqual([1, 1]);
    // Either end of the list: the first held, then the last.
    await waits.announceSettled(ORG, A);
    await jest.advanceTimersByTimeAsync(0);
    expect([waits.pendingTicks, jest.getTimerCount()]).toEqual([1, 1]);
    await waits.announceSettled(ORG, `${A}-2`);
    await jest.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual([`${B} settled`, `${A} settled`, `${A}-2 settled`]);
    expect([waits.pendingTicks, jest.getTimerCount()]).toEqual([0, 0]);
    // The waits left in the middle of a tick's list still end at their tick, and only they.
    for (const id of ['x', 'y', 'z']) hold(id);
    await waits.announceSettled(ORG, 'y');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(outcomes.slice(3).sort()).toEqual(['x elapsed', 'y settled', 'z elapsed']);
    expect(waits.size).toBe(0);
  });

  it('stopping ends the waits of every tick at once and clears their timers', async () => {
    const { waits } = setUp();
    const outcomes: Promise<string>[] = [];
    for (let i = 0; i < 40; i++) {
      outcomes.push(waits.register(ORG, `${A}-${i}`).until(20_000 + i * 1_000));
      await jest.advanceTimersByTimeAsync(250);
    }
    expect(waits.pendingTicks).toBeGreaterThan(10);
    expect(jest.getTimerCount()).toBe(waits.pendingTicks);
    waits.stopWaiting();
    expect(await Promise.all(outcomes)).toEqual(outcomes.map(() => 'stopping'));
    expect([waits.pendingTicks, jest.getTimerCount(), waits.size]).toEqual([0, 0, 0]);
  });

  it('runs at most WAIT_READS_AT_ONCE reads at once, the others in their order; a failed read passes its turn on', async () => {
    jest.useRealTimers();
    const { waits } = setUp();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const reads = Array.from({ length: 10 }, (_, n) =>
      waits.read(async () => {
        running++;
        most = Math.max(most, running);
        order.push(n);
        await new Promise<void>((open) => gates.push(open));
        running--;
        if (n === 0) throw new Error('the database is away');
        return n;
      }),
    );
    const settled = Promise.allSettled(reads);
    await Promise.resolve();
    expect(running).toBe(WAIT_READS_AT_ONCE);
    expect(waits.readsQueued).toBe(10 - WAIT_READS_AT_ONCE);
    // Let each read finish once it has started, until all have.
    while (order.length < 10 || gates.length > 0) {
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    const results = await settled;
    expect(results[0].status).toBe('rejected');
    expect(results.slice(1).map((r) => (r.status === 'fulfilled' ? r.value : r.status))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(WAIT_READS_AT_ONCE);
    expect(waits.readsQueued).toBe(0);
    // Every slot came back: as many run at once again.
    let again = 0;
    const gate: (() => void)[] = [];
    const more = Array.from({ length: WAIT_READS_AT_ONCE }, () =>
      waits.read(async () => {
        again++;
        await new Promise<void>((open) => gate.push(open));
      }),
    );
    await Promise.resolve();
    expect(again).toBe(WAIT_READS_AT_ONCE);
    gate.forEach((open) => open());
    await Promise.all(more);
  });
  it("serves a settled wait's answer before the reads queued ahead of it, settled ones in their order", async () => {
    jest.useRealTimers();
    const { waits } = setUp();
    const order: string[] = [];
    const gates: (() => void)[] = [];
    const read = (name: string, settled?: boolean) =>
      waits.read(async () => {
        order.push(name);
        await new Promise<void>((open) => gates.push(open));
        return name;
      }, settled);
    const busy = Array.from({ length: WAIT_READS_AT_ONCE }, (_, n) => read(`busy ${n}`));
    const queued = [
      read('elapsed 1'),
      read('first 2', false),
      read('settled 1', true),
      read('elapsed 3'),
      read('settled 2', true),
    ];
    await Promise.resolve();
    expect(waits.readsQueued).toBe(5);
    while (order.length < WAIT_READS_AT_ONCE + 5 || gates.length > 0) {
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all([...busy, ...queued]);
    expect(order.slice(WAIT_READS_AT_ONCE)).toEqual([
      'settled 1',
      'settled 2',
      'elapsed 1',
      'first 2',
      'elapsed 3',
    ]);
    expect(waits.readsQueued).toBe(0);
  });

  it('after a bus resync, wakes only the waits whose interrupt left open (or is gone), reading the held ones in batches; a failed read wakes its waits', async () => {
    const { waits, reconnect } = setUpReconnecting();
    const flush = async () => {
      for (let i = 0; i < 50; i++) await Promise.resolve();
    };
    const OTHER = '00000000-0000-4000-8000-000000000002';
    const GONE = '00000000-0000-4000-8000-00000000000c';
    const many = Array.from(
      { length: 300 },
      (_, i) => `00000000-0000-4000-8001-${String(i).padStart(12, '0')}`,
    );
    const reads: [string, string[]][] = [];
    let failing = false;
    waits.readStatusesWith(async (organisationId, ids) => {
      reads.push([organisationId, [...ids]]);
      if (failing) throw new Error('the database is unavailable');
      const answered = organisationId === ORG ? A : undefined;
      return new Map(
        ids.filter((id) => id !== GONE).map((id) => [id, id === answered ? 'answered' : 'open']),
      );
    });
    const a = waits.register(ORG, A).until(60_000);
    const b = waits.register(ORG, B).until(60_000);
    const gone = waits.register(ORG, GONE).until(60_000);
    const other = waits.register(OTHER, A).until(60_000);
    for (const id of many) void waits.register(ORG, id).until(60_000);
    reconnect();
    await flush();
    await expect(a).resolves.toBe('settled');
    await expect(gone).resolves.toBe('settled');
    // 303 of one organisation in two statements (WAIT_READ_BATCH_MAX), one for the other.
    expect(reads.map(([org, ids]) => [org, ids.length])).toEqual([
      [ORG, WAIT_READ_BATCH_MAX],
      [ORG, 303 - WAIT_READ_BATCH_MAX],
      [OTHER, 1],
    ]);
    // The other organisation's interrupt by the same id is open there: its wait holds.
    expect(waits.waiting).toBe(302);
    // A resync forgets what was known open: announcements may have been missed.
    const known = waits.register(ORG, GONE);
    const ranOut = known.until(1_000);
    jest.advanceTimersByTime(1_000);
    await expect(ranOut).resolves.toBe('elapsed');
    reconnect();
    await flush();
    expect(waits.takeKnownOpen(`${ORG}:${GONE}`)).toBe(false);
    expect(waits.waiting).toBe(302);
    failing = true;
    reconnect();
    await flush();
    await expect(b).resolves.toBe('settled');
    await expect(other).resolves.toBe('settled');
    expect(waits.waiting).toBe(0);
  });

  it('a wait whose hold spanned a resync marks nothing, even when it runs its time before the resync reads its interrupt', async () => {
    const { waits, reconnect } = setUpReconnecting();
    // The resync's read of the held interrupts answers when the test says so.
    let answer: (statuses: ReadonlyMap<string, string>) => void = () => undefined;
    waits.readStatusesWith(() => new Promise((resolve) => (answer = resolve)));
    const wait = waits.register(ORG, A);
    const held = wait.until(1_000);
    // A's decision was announced while the bus was down: lost. The bus reconnects, and A's time
    // runs out before the resync's read wakes it.
    reconnect();
    jest.advanceTimersByTime(1_000);
    await expect(held).resolves.toBe('elapsed');
    answer(new Map([[A, 'answered']]));
    expect(waits.takeKnownOpen(`${ORG}:${A}`)).toBe(false);
    // A wait registered after the resync marks as ever.
    const after = waits.register(ORG, B).until(1_000);
    jest.advanceTimersByTime(1_000);
    await expect(after).resolves.toBe('elapsed');
    expect(waits.takeKnownOpen(`${ORG}:${B}`)).toBe(true);
  });
});

describe('WaitReadBatches', () => {
  const OTHER = '00000000-0000-4000-8000-000000000002';
  const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  /** The batches' calls, each held until `release()`; ids above 9,000 are nobody's; OTHER's reads fail. */
  function batches() {
    const { waits } = setUp();
    const calls: { organisationId: string; ids: readonly string[] }[] = [];
    const gates: (() => void)[] = [];
    const reads = new WaitReadBatches<string>(waits, async (organisationId, ids) => {
      calls.push({ organisationId, ids });
      await new Promise<void>((open) => gates.push(open));
      if (organisationId === OTHER) throw new Error('the database is away');
      return new Map(
        ids.filter((id) => Number(id.slice(-12)) < 9_000).map((id) => [id, `row ${id.slice(-4)}`]),
      );
    });
    const release = async () => {
      while (gates.length > 0) {
        gates.shift()?.();
        await new Promise((r) => setImmediate(r));
      }
    };
    return { waits, calls, reads, release };
  }

  it('reads a settled load alone at once; plain loads wait WAIT_READ_GATHER_MS to share a statement', async () => {
    // The batches' gates pass on setImmediate: only the gathering's timers are faked.
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const { calls, reads, release } = batches();
      const settled = reads.load(ORG, idOf(7), true);
      await jest.advanceTimersByTimeAsync(0);
      expect(calls).toEqual([{ organisationId: ORG, ids: [idOf(7)] }]);
      await release();
      await expect(settled).resolves.toBe('row 0007');
      const first = reads.load(ORG, idOf(8));
      await jest.advanceTimersByTimeAsync(WAIT_READ_GATHER_MS - 1);
      const second = reads.load(ORG, idOf(9));
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toEqual([
        { organisationId: ORG, ids: [idOf(7)] },
        { organisationId: ORG, ids: [idOf(8), idOf(9)] },
      ]);
      await release();
      await expect(Promise.all([first, second])).resolves.toEqual(['row 0008', 'row 0009']);
      // A batch's worth queued asks at once.
      const full = Array.from({ length: WAIT_READ_BATCH_MAX }, (_, n) => reads.load(ORG, idOf(n)));
      await jest.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(3);
      expect(calls[2].ids).toHaveLength(WAIT_READ_BATCH_MAX);
      await release();
      await Promise.all(full);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reads at once what is gathering when the instance stops waiting, and never gathers after (its pool closes next)', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const { waits, calls, reads, release } = batches();
      const gathering = reads.load(ORG, idOf(1));
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toEqual([]);
      waits.stopWaiting();
      await jest.advanceTimersByTimeAsync(0);
      expect(calls).toEqual([{ organisationId: ORG, ids: [idOf(1)] }]);
      await release();
      await expect(gathering).resolves.toBe('row 0001');
      const after = reads.load(ORG, idOf(2));
      await jest.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(2);
      await release();
      await expect(after).resolves.toBe('row 0002');
    } finally {
      jest.useRealTimers();
    }
  });

  it('gathers the loads queued behind busy turns into batches of at most WAIT_READ_BATCH_MAX per organisation, settled ones first', async () => {
    const { waits, calls, reads, release } = batches();
    // Every turn taken: what comes now queues.
    const gates: (() => void)[] = [];
    const busy = Array.from({ length: WAIT_READS_AT_ONCE }, () =>
      waits.read(() => new Promise<void>((open) => gates.push(open))),
    );
    const plain = Array.from({ length: 2 * WAIT_READ_BATCH_MAX }, (_, n) =>
      reads.load(ORG, idOf(n)),
    );
    const settled = [reads.load(ORG, idOf(1_000), true), reads.load(ORG, idOf(9_001), true)];
    const failing = reads.load(OTHER, idOf(3));
    const outcomes = Promise.allSettled([...plain, ...settled, failing]);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([]);
    gates.forEach((open) => open());
    await Promise.all(busy);
    await release();
    const results = await outcomes;
    // First batch: the two settled loads, then plain ones up to the cap, in one statement.
    expect(calls[0]).toEqual({
      organisationId: ORG,
      ids: [
        idOf(1_000),
        idOf(9_001),
        ...Array.from({ length: WAIT_READ_BATCH_MAX - 2 }, (_, n) => idOf(n)),
      ],
    });
    expect(calls.every((call) => call.ids.length <= WAIT_READ_BATCH_MAX)).toBe(true);
    expect(calls.filter((call) => call.organisationId === OTHER)).toEqual([
      { organisationId: OTHER, ids: [idOf(3)] },
    ]);
    // Every load read once, each with its own row: none for an id nobody has, an error for OTHER only.
    expect(calls.flatMap((call) => call.ids).length).toBe(2 * WAIT_READ_BATCH_MAX + 3);
    expect(calls.length).toBe(4);
    expect(
      results.slice(0, plain.length).map((r) => (r.status === 'fulfilled' ? r.value : r.status)),
    ).toEqual(Array.from({ length: plain.length }, (_, n) => `row ${String(n).padStart(4, '0')}`));
    expect(results[plain.length]).toEqual({ status: 'fulfilled', value: 'row 1000' });
    expect(results[plain.length + 1]).toEqual({ status: 'fulfilled', value: undefined });
    expect(results[plain.length + 2]).toMatchObject({ status: 'rejected' });
    expect(waits.readsQueued).toBe(0);
  });
});
