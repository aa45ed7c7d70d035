import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { getHeapStatistics } from 'node:v8';
import { DomainError } from '@interlock/domain';
import type { Logger } from 'pino';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig, WaitLimitsConfig } from '../config/app-config';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { instanceWaitLimit } from './held-wait-capacity.util';

/**
 * The bus channel on which "this interrupt is no longer open" is announced to every instance,
 * after the change committed. The payload is `<organisationId>:<interruptId>`: a woken wait reads
 * the interrupt itself, so an announcement carries nothing that could be stale.
 */
export const INTERRUPT_SETTLED_CHANNEL = 'interlock_interrupt_settled';

/** Seconds a wait refused for a cap should let pass before it asks again. */
export const WAIT_CAP_RETRY_AFTER_SECONDS = 5;

export function organisationWaitCapMessage(cap: number): string {
  return `Too many waiting requests: this organisation may hold ${cap} at once on an instance. Retry shortly.`;
}

export const INSTANCE_WAIT_CAP_MESSAGE =
  'This instance holds as many waiting requests as it can. Retry shortly.';

/**
 * A hold of at least this long may end early when many others would end with it (SPEC §8e): waits
 * begun together — agents started at once, or re-asking together after an instance stopped —
 * would otherwise all end, read, be answered and come back at the same moment, every time, and the
 * instance would spend that moment's CPU on them while a decision made then waits its turn.
 * Shorter holds end on time (a hold ended by its own time within 10 s costs a request; these never
 * do).
 */
export const WAIT_LEVEL_FROM_MS = 20_000;

/** The width of the slots in which held waits' ends are counted (WaitEnds). */
export const WAIT_END_SLOT_MS = 1_000;

/**
 * How many ends a slot takes besides its even share before a hold looks for an earlier one: a few
 * waits begun together end on time.
 */
export const WAIT_END_SLOT_SPARE = 10;

/**
 * Long holds end on this instance's clock's grid of this many ms (WaitEnds): the waits of one tick
 * end under one timer, in one turn of the event loop, and their agents' next requests arrive
 * together — a wait cycle then pays an event-loop wake, a timer and a socket write per tick rather
 * than per hold (issue 37 §6: a bare Node server holding 10,000 waits spent 0.77 ms of CPU a cycle
 * ending each at its own moment, 0.45 ms ending them on a 1 s grid). Not 1 s in the service: a
 * second's ~150 answers and their next requests made one burst that a decision made then waited
 * for (BENCHMARKS, issue 37 §6 session 18: p99 70 ms at load 1 against 25 ms at 500 ms).
 */
export const WAIT_END_TICK_MS = 500;

/**
 * The clock of long holds' ticks and of the known-open marks' turns (ms): monotonic, as the
 * timers that end the ticks are. A tick is shared by every hold that ends at it, so on the wall
 * clock a step of it (NTP) would let a hold begun after the step join a tick scheduled before it:
 * held past its N (stepped forward) or below N/2 (stepped back).
 */
export function waitClock(): number {
  return Math.floor(performance.timeOrigin + performance.now());
}

/** The earliest a long hold may end: half its time (a hold of 60 s: after 30 s at the soonest). */
export function waitEarliestEndMs(ms: number): number {
  return ms < WAIT_LEVEL_FROM_MS ? ms : Math.ceil(ms / 2);
}

/**
 * When this instance's long holds end, counted per slot of WAIT_END_SLOT_MS, so that a herd of
 * them is levelled at its root: a hold of N ≥ 20 s ends at N unless its slot already holds its
 * share of the ends — the long holds scheduled, spread evenly over N, plus WAIT_END_SLOT_SPARE —
 * else in the latest slot from N/2 on that has room, else in the least full of them. One agent
 * waits its full N; 10,000 waits begun together end spread over the last half of their hold, and
 * again a full N later each, so the herd does not form again. The slot is chosen so; the moment in
 * it is a tick of WAIT_END_TICK_MS on `now`'s clock (at random among the slot's ticks, if it has
 * several), never after N nor before N/2: a hold ends up to one tick early, and the ends of one
 * tick share one timer (InterruptWaits).
 */
export class WaitEnds {
  private readonly slots = new Map<number, number>();
  private scheduled = 0;

  constructor(private readonly random: () => number = Math.random) {}

  /** How many long holds have an end scheduled. */
  get size(): number {
    return this.scheduled;
  }

  /**
   * The time (ms on `now`'s clock) a hold of `ms` begun at `now` ends — a multiple of
   * WAIT_END_TICK_MS for a levelled hold — and its slot (undefined for a hold that is not
   * levelled: it ends at `now + ms`); `release(slot)` when the hold ends, whatever ended it.
   */
  schedule(now: number, ms: number): { at: number; slot: number | undefined } {
    if (ms < WAIT_LEVEL_FROM_MS) return { at: now + ms, slot: undefined };
    const full = now + ms;
    const earliest = now + waitEarliestEndMs(ms);
    const last = Math.floor(full / WAIT_END_SLOT_MS);
    const first = Math.ceil(earliest / WAIT_END_SLOT_MS);
    const share = Math.ceil((this.scheduled * WAIT_END_SLOT_MS) / ms) + WAIT_END_SLOT_SPARE;
    let chosen = last;
    let least = Infinity;
    for (let slot = last; slot >= first; slot--) {
      const n = this.slots.get(slot) ?? 0;
      if (n < share) {
        chosen = slot;
        break;
      }
      if (n < least) [chosen, least] = [slot, n];
    }
    this.slots.set(chosen, (this.slots.get(chosen) ?? 0) + 1);
    this.scheduled++;
    const moment =
      chosen === last ? full : chosen * WAIT_END_SLOT_MS + this.random() * WAIT_END_SLOT_MS;
    // The tick at or before the moment, within [N/2, N] (a hold of 20 s or more spans ticks).
    const tick = Math.floor(moment / WAIT_END_TICK_MS) * WAIT_END_TICK_MS;
    const at = Math.min(
      Math.floor(full / WAIT_END_TICK_MS) * WAIT_END_TICK_MS,
      Math.max(Math.ceil(earliest / WAIT_END_TICK_MS) * WAIT_END_TICK_MS, tick),
    );
    return { at, slot: chosen };
  }

  release(slot: number | undefined): void {
    if (slot === undefined) return;
    this.scheduled--;
    const n = (this.slots.get(slot) ?? 0) - 1;
    if (n <= 0) this.slots.delete(slot);
    else this.slots.set(slot, n);
  }
}

/**
 * How many of the reads held waits make (the first, and the one that answers) run at once on an
 * instance; the others queue for a turn, first come first served. A herd of waits ending
 * together then takes a few of the database pool's connections (10) for a moment, never all of
 * them for longer than the pool lets a request wait for one (5 s: 503).
 */
export const WAIT_READS_AT_ONCE = 4;

/**
 * The statuses of some of one organisation's interrupts, by id (an id it has none by is left out):
 * how a resync learns which held waits' interrupts left `open` while announcements may have been
 * missed (InterruptWaits.readStatusesWith).
 */
export type WaitStatusReader = (
  organisationId: string,
  ids: readonly string[],
) => Promise<ReadonlyMap<string, string>>;

/** Why a wait ended. */
export type WaitOutcome = 'settled' | 'elapsed' | 'disconnected' | 'stopping';

/**
 * The client of a held request as its wait sees it: whether it has left (its connection closed
 * before the answer was sent), and the one listener told when it leaves. Not an AbortSignal: one
 * made for every held request (an AbortController, its EventTarget listeners) cost the hold more
 * than the rest of its bookkeeping (issue 37 §6).
 */
export interface WaitClient {
  readonly left: boolean;
  /** Sets the wait woken (`disconnected`) when the client leaves (undefined: none). */
  onLeave(wait: Waiter | undefined): void;
}

/** One held request, registered before its first read so that no announcement can slip between. */
export interface InterruptWait {
  /**
   * Resolves when the interrupt is announced settled, `ms` pass (a long hold: on a tick of
   * WAIT_END_TICK_MS up to one tick sooner, or sooner still but no sooner than half of it when many
   * others would end with it: WaitEnds), `client` leaves or the instance stops.
   */
  until(ms: number, client?: WaitClient): Promise<WaitOutcome>;
  /** Unregisters (idempotent); call it in every case. */
  release(): void;
  /**
   * Set when a cap (SPEC §8e: per organisation, per instance) refused to hold this wait: it is
   * not registered, and must be refused if the interrupt is open (answered at once otherwise).
   */
  readonly refusal?: DomainError;
  /** InterruptWaits.takeKnownOpen for this wait's interrupt (false for a refused wait). */
  takeKnownOpen(): boolean;
  /** InterruptWaits.forgetOpen for this wait's interrupt (its answer was read not open). */
  forgetKnownOpen(): void;
}

/** A held wait as what may end it sees it. */
export interface Waiter {
  wake(outcome: WaitOutcome): void;
}

/** A wait refused for a cap: nothing registered, nothing to release, nothing to hold. */
class RefusedWait implements InterruptWait {
  constructor(readonly refusal: DomainError) {}
  release(): void {
    // Nothing was registered.
  }
  until(): Promise<WaitOutcome> {
    return Promise.resolve('elapsed');
  }
  takeKnownOpen(): boolean {
    return false;
  }
  forgetKnownOpen(): void {
    // Nothing was registered, so nothing was marked.
  }
}

/** The time of a held wait runs out (a module function and the wait as its argument: no closure per wait). */
function elapse(wait: Waiter): void {
  wait.wake('elapsed');
}

/**
 * The long holds that end at one tick (WaitEnds), in a list through the waits themselves (no Set
 * entry, no closure a wait), under one timer: InterruptWaits.endTick wakes them all in one turn.
 */
class WaitTick {
  head: HeldWait | undefined;
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly waits: InterruptWaits,
    /** The tick, ms on waitClock(). */
    readonly at: number,
  ) {}
}

/** A tick's time comes (a module function and the tick as its argument). */
function endTick(tick: WaitTick): void {
  tick.waits.endTick(tick);
}

/**
 * One registered wait (InterruptWaits.register). A class rather than closures: it is what a held
 * request keeps for as long as it is held, thousands at once, and each closure the service's
 * bundle names (esbuild's keepNames) costs about 300 bytes of heap with its property array (issue
 * 37 §6: `npx nx run tools:bench-wait-heap`).
 */
class HeldWait implements InterruptWait, Waiter {
  woken: WaitOutcome | undefined;
  registered = false;
  private done: ((outcome: WaitOutcome) => void) | undefined;
  /** A short hold's own timer (InterruptWaits.hold). */
  timer: NodeJS.Timeout | undefined;
  /** A long hold's slot (WaitEnds) and tick, and its neighbours in the tick's list. */
  slot: number | undefined;
  tick: WaitTick | undefined;
  tickPrev: HeldWait | undefined;
  tickNext: HeldWait | undefined;
  private client: WaitClient | undefined;

  constructor(
    private readonly waits: InterruptWaits,
    readonly key: string,
    readonly organisationId: string,
    /** The instance's resyncs when this wait was registered (InterruptWaits.markOpen). */
    private readonly resyncsAt: number,
  ) {}

  wake(outcome: WaitOutcome): void {
    this.woken ??= outcome;
    if (this.done === undefined) return;
    const done = this.done;
    this.done = undefined;
    this.waits.unhold(this);
    // Registered from before its first read to now: a change that ended the interrupt would have
    // woken it — unless announcements were missed meanwhile (markOpen checks for a resync since).
    if (this.woken === 'elapsed') this.waits.markOpen(this.key, this.resyncsAt);
    this.client?.onLeave(undefined);
    this.client = undefined;
    this.release();
    done(this.woken);
  }

  takeKnownOpen(): boolean {
    return this.waits.takeKnownOpen(this.key);
  }

  forgetKnownOpen(): void {
    this.waits.forgetOpen(this.key);
  }

  release(): void {
    if (!this.registered) return;
    this.registered = false;
    this.waits.unregister(this);
  }

  until(ms: number, client?: WaitClient): Promise<WaitOutcome> {
    if (this.woken !== undefined) return Promise.resolve(this.woken);
    if (client?.left) return Promise.resolve<WaitOutcome>('disconnected');
    return new Promise<WaitOutcome>((done) => {
      this.done = done;
      this.waits.hold(this, ms);
      this.client = client;
      client?.onLeave(this);
    });
  }
}

/**
 * How long an interrupt stays known open on an instance after a wait held there on it ran its
 * time (InterruptWaits.takeKnownOpen): at least this long, at most twice. The agent asks again at
 * once (SPEC §8e), so this only bounds what is kept for agents that do not come back.
 */
export const WAIT_KNOWN_OPEN_MS = 10_000;

/**
 * Requests held until an interrupt is decided (`GET /api/interrupts/{id}?waitSeconds=N`, SPEC
 * §8e), on this instance. One subscription to the bus serves them all: a waiting request costs a
 * map entry and a timer, and no database query while it waits. Woken by an announcement from any
 * instance, by the bus reconnecting when its interrupt left `open` meanwhile (announcements may
 * have been missed: the held interrupts' statuses are read in batches, `resync`), by its own time
 * running out, by its client leaving, and by the shutdown — each then answers the interrupt's
 * current state, so none holds up a drain.
 */
@Injectable()
export class InterruptWaits implements OnModuleDestroy, BeforeApplicationShutdown {
  /**
   * The held waits by `<organisationId>:<interruptId>`: the one wait itself (an agent waits for its
   * own interrupt: almost always one a key), a set only for several (a set per wait was ~150 bytes
   * of a held request's heap, issue 37 §6).
   */
  private readonly waiters = new Map<string, HeldWait | Set<HeldWait>>();
  private readonly byOrganisation = new Map<string, number>();
  private readonly limits: { perOrganisation: number; perInstance: number };
  private readonly unsubscribe: () => void;
  private readonly unresync: () => void;
  private stopping = false;
  private count = 0;
  private inUntil = 0;
  private reading = 0;
  private readonly readQueue: (() => void)[] = [];
  /** Turns of the reads that answer a wait its interrupt's change woke: served before readQueue's. */
  private readonly answerQueue: (() => void)[] = [];
  private statusReader: WaitStatusReader | undefined;
  private readonly ends = new WaitEnds();
  /** The ticks long holds end at, by time (hold). */
  private readonly ticks = new Map<number, WaitTick>();
  /**
   * The interrupts known open here without a read (takeKnownOpen), by key, in two generations of
   * WAIT_KNOWN_OPEN_MS: marked when a wait on one ran its time, cleared by its announcement, all
   * of them by a resync.
   */
  private knownOpen = new Set<string>();
  private knownOpenBefore = new Set<string>();
  private knownOpenTurnsAt = 0;
  /**
   * How many resyncs began on this instance: a wait whose hold spanned one may have missed its
   * interrupt's announcement, and marks nothing (markOpen).
   */
  private resyncs = 0;

  constructor(
    private readonly bus: NotificationBus,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.limits =
      config === undefined
        ? { perOrganisation: 0, perInstance: 0 }
        : {
            perOrganisation: config.waits.perOrganisation,
            perInstance: this.instanceLimit(config.waits, getHeapStatistics().heap_size_limit),
          };
    this.unsubscribe = bus.subscribe(INTERRUPT_SETTLED_CHANNEL, (payload) => {
      this.forgetOpen(payload);
      this.wakeKey(payload, 'settled');
    });
    this.unresync = bus.onResync(() => void this.resync());
  }

  /**
   * The cap on this instance's held waits (SPEC §8e): WAITS_MAX_PER_INSTANCE, or when it is not
   * set what the heap holds (at most 20,000), logged at start; a setting past what the heap holds
   * (or 0, no cap) is kept, with a warning: past it the process may run out of heap and exit.
   */
  private instanceLimit(waits: WaitLimitsConfig, heapLimitBytes: number): number {
    const { limit, heapHolds, source } = instanceWaitLimit(waits.perInstance, heapLimitBytes);
    const fields = {
      waitsMaxPerInstance: limit,
      heapHolds,
      heapLimitBytes,
      source,
    };
    if (source === 'set' && (limit === 0 || limit > heapHolds))
      this.logger.warn(
        fields,
        `WAITS_MAX_PER_INSTANCE is ${limit === 0 ? '0 (no cap)' : limit}, but this heap holds about ${heapHolds} held waits: past them the process may run out of heap and exit. Raise --max-old-space-size (NODE_OPTIONS) or lower WAITS_MAX_PER_INSTANCE`,
      );
    else this.logger.info(fields, `held waits: at most ${limit} on this instance`);
    return limit;
  }

  /** How a resync reads the held interrupts' statuses (the interrupts' owner sets it). */
  readStatusesWith(reader: WaitStatusReader): void {
    this.statusReader = reader;
  }

  /** How many requests this instance holds now. */
  get size(): number {
    return this.count;
  }

  /** How many waits are past their first read and waiting now (`until`), on this instance. */
  get waiting(): number {
    return this.inUntil;
  }

  /** How many requests of one organisation this instance holds now. */
  heldFor(organisationId: string): number {
    return this.byOrganisation.get(organisationId) ?? 0;
  }

  /** How many of the waits' reads queue for a turn now (WAIT_READS_AT_ONCE run). */
  get readsQueued(): number {
    return this.readQueue.length + this.answerQueue.length;
  }

  /**
   * Runs one of a held wait's reads in its turn: at most WAIT_READS_AT_ONCE at once, in order —
   * except that a `settled` read (the answer of a wait its interrupt's decision woke) goes before
   * every other one queued: an agent whose decision is made is not kept behind a herd of waits
   * that only ran out of time (SPEC §8e).
   */
  async read<T>(task: () => Promise<T>, settled = false): Promise<T> {
    if (this.reading >= WAIT_READS_AT_ONCE)
      await new Promise<void>((turn) => (settled ? this.answerQueue : this.readQueue).push(turn));
    else this.reading++;
    try {
      return await task();
    } finally {
      // The slot passes to the next in line, or is given back.
      const next = this.answerQueue.shift() ?? this.readQueue.shift();
      if (next === undefined) this.reading--;
      else next();
    }
  }

  /** Announces, after its commit, that an interrupt is no longer open; a lost announcement only delays waits to their time. */
  announceSettled(organisationId: string, interruptId: string): Promise<void> {
    return this.announceAllSettled(organisationId, [interruptId]);
  }

  /** `announceSettled` of several interrupts of one organisation (a batch of expiries), in one go. */
  async announceAllSettled(organisationId: string, interruptIds: readonly string[]): Promise<void> {
    try {
      await this.bus.publishAll(
        INTERRUPT_SETTLED_CHANNEL,
        interruptIds.map((id) => `${organisationId}:${id}`),
      );
    } catch (error) {
      // Not announced, not even here: what this instance knows open of them is forgotten, so that
      // the next wait on one reads it first instead of holding on a settled interrupt.
      for (const id of interruptIds) this.forgetOpen(`${organisationId}:${id}`);
      this.logger.warn(
        { err: error, organisationId, interruptIds },
        'could not announce a settled interrupt',
      );
    }
  }

  /**
   * Registers a wait, before the first read. Past a cap (`WAITS_MAX_PER_INSTANCE`: 503;
   * `WAITS_MAX_PER_ORGANISATION`: 429) nothing is registered and the wait carries its refusal.
   */
  register(organisationId: string, interruptId: string): InterruptWait {
    const refusal = this.refusalFor(organisationId);
    if (refusal !== undefined) return new RefusedWait(refusal);
    const wait = new HeldWait(
      this,
      `${organisationId}:${interruptId}`,
      organisationId,
      this.resyncs,
    );
    if (this.stopping) {
      wait.woken = 'stopping';
      return wait;
    }
    const held = this.waiters.get(wait.key);
    if (held === undefined) this.waiters.set(wait.key, wait);
    else if (held instanceof Set) held.add(wait);
    else this.waiters.set(wait.key, new Set([held, wait]));
    wait.registered = true;
    this.count++;
    bump(this.byOrganisation, organisationId, 1);
    return wait;
  }

  /**
   * Whether the interrupt (`<organisationId>:<interruptId>`, a wait's key: InterruptWait.takeKnownOpen)
   * is known open here without reading it, and forgets it (one wait takes
   * it: its own time running out marks it again). Known when the last wait held here on it ran
   * its time while the bus was healthy, and no announcement of it came since — so the interrupt
   * was open when that wait ended, or the change that ended it is announced, and wakes the next
   * wait when it comes: the wait registered now, held at once, reads when it ends as any wait
   * does (issue 37 §6: the agent's next wait skips its first read, one of a cycle's two). Not
   * while the bus is unhealthy: announcements may be missed, and the resync that follows forgets
   * every mark before it reads the held waits' interrupts (this wait's among them).
   */
  takeKnownOpen(key: string): boolean {
    if (this.knownOpen.size === 0 && this.knownOpenBefore.size === 0) return false;
    this.turnKnownOpen(waitClock());
    const known = this.knownOpen.delete(key);
    return (this.knownOpenBefore.delete(key) || known) && this.bus.healthy;
  }

  /**
   * A wait on `key`, registered when `resyncs` resyncs had begun, ran its time (HeldWait.wake): it
   * is known open — unless a resync began since (announcements may have been missed while it was
   * held, and the resync's read of its interrupt may not have come yet).
   */
  markOpen(key: string, resyncs: number): void {
    if (this.stopping || !this.bus.healthy || resyncs !== this.resyncs) return;
    this.turnKnownOpen(waitClock());
    this.knownOpen.add(key);
  }

  /** The interrupt (a wait's key) is not known open any more: announced, or its wait's answer read it not open. */
  forgetOpen(key: string): void {
    this.knownOpen.delete(key);
    this.knownOpenBefore.delete(key);
  }

  /** Nothing is known open any more (the instance stops, or announcements may have been missed). */
  private forgetAllOpen(): void {
    this.knownOpen.clear();
    this.knownOpenBefore.clear();
  }

  /**
   * A new generation of marks every WAIT_KNOWN_OPEN_MS, on a fixed grid (the turns are whole steps
   * of it apart, however late one is noticed); the one before it is dropped. A mark made in one
   * step is dropped at the end of the next: it lives more than WAIT_KNOWN_OPEN_MS, at most twice.
   */
  private turnKnownOpen(now: number): void {
    if (now < this.knownOpenTurnsAt) return;
    const steps = Math.floor((now - this.knownOpenTurnsAt) / WAIT_KNOWN_OPEN_MS) + 1;
    this.knownOpenBefore = steps === 1 ? this.knownOpen : new Set();
    this.knownOpen = new Set();
    this.knownOpenTurnsAt += steps * WAIT_KNOWN_OPEN_MS;
  }

  /**
   * A registered wait begins its hold of `ms` now (WaitEnds): a short one under a timer of its own,
   * a long one in the list of its tick, under the tick's one timer.
   */
  hold(wait: HeldWait, ms: number): void {
    this.inUntil++;
    const now = waitClock();
    const end = this.ends.schedule(now, ms);
    wait.slot = end.slot;
    if (end.slot === undefined) {
      wait.timer = setTimeout(elapse, end.at - now, wait);
      return;
    }
    let tick = this.ticks.get(end.at);
    if (tick === undefined) {
      tick = new WaitTick(this, end.at);
      tick.timer = setTimeout(endTick, end.at - now, tick);
      this.ticks.set(end.at, tick);
    }
    wait.tick = tick;
    wait.tickNext = tick.head;
    if (tick.head !== undefined) tick.head.tickPrev = wait;
    tick.head = wait;
  }

  /** A hold ended (whatever ended it): its slot is given back, its timer or its place in its tick. */
  unhold(wait: HeldWait): void {
    this.inUntil--;
    this.ends.release(wait.slot);
    wait.slot = undefined;
    if (wait.timer !== undefined) {
      clearTimeout(wait.timer);
      wait.timer = undefined;
    }
    const tick = wait.tick;
    if (tick === undefined) return;
    if (wait.tickPrev === undefined) tick.head = wait.tickNext;
    else wait.tickPrev.tickNext = wait.tickNext;
    if (wait.tickNext !== undefined) wait.tickNext.tickPrev = wait.tickPrev;
    wait.tick = wait.tickPrev = wait.tickNext = undefined;
    // The last wait of a tick: its timer goes with it.
    if (tick.head === undefined) {
      clearTimeout(tick.timer);
      this.ticks.delete(tick.at);
    }
  }

  /** A tick's time came: every hold in its list ends now, in this turn. */
  endTick(tick: WaitTick): void {
    this.ticks.delete(tick.at);
    tick.timer = undefined;
    let wait = tick.head;
    tick.head = undefined;
    while (wait !== undefined) {
      const next = wait.tickNext;
      wait.tick = wait.tickPrev = wait.tickNext = undefined;
      wait.wake('elapsed');
      wait = next;
    }
  }

  /** How many ticks have long holds ending at them, each under one timer (WaitEnds). */
  get pendingTicks(): number {
    return this.ticks.size;
  }

  /** A registered wait is released. */
  unregister(wait: HeldWait): void {
    this.count--;
    bump(this.byOrganisation, wait.organisationId, -1);
    const held = this.waiters.get(wait.key);
    if (held === wait) this.waiters.delete(wait.key);
    else if (held instanceof Set) {
      held.delete(wait);
      if (held.size === 0) this.waiters.delete(wait.key);
    }
  }

  private refusalFor(organisationId: string): DomainError | undefined {
    const { perOrganisation, perInstance } = this.limits;
    const retryAfter = { 'retry-after': String(WAIT_CAP_RETRY_AFTER_SECONDS) };
    if (perInstance > 0 && this.count >= perInstance)
      return new DomainError('SERVICE_UNAVAILABLE', INSTANCE_WAIT_CAP_MESSAGE, retryAfter);
    if (perOrganisation > 0 && this.heldFor(organisationId) >= perOrganisation)
      return new DomainError(
        'RATE_LIMITED',
        organisationWaitCapMessage(perOrganisation),
        retryAfter,
      );
    return undefined;
  }

  /** What runs when the instance stops waiting (the read batches' flush), once. */
  private readonly onStop = new Set<() => void>();

  /** Whether the instance stopped waiting: what is read now is read at once, never gathered. */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** Runs `flush` when the instance stops waiting (at once if it has). */
  whenStopping(flush: () => void): void {
    if (this.stopping) flush();
    else this.onStop.add(flush);
  }

  /** Ends every wait now (each answers the current state): the server is about to stop listening. */
  stopWaiting(): void {
    this.stopping = true;
    this.forgetAllOpen();
    this.wakeAll('stopping');
    for (const flush of this.onStop) flush();
    this.onStop.clear();
  }

  beforeApplicationShutdown(): void {
    this.stopWaiting();
  }

  onModuleDestroy(): void {
    this.stopWaiting();
    this.unsubscribe();
    this.unresync();
  }

  /**
   * The bus reconnected: announcements may have been missed meanwhile. Rather than wake every held
   * wait to read its interrupt (N reads, N answers, and N agents asking again at once), the held
   * interrupts' statuses are read — one statement per organisation and WAIT_READ_BATCH_MAX, in the
   * waits' read turns — and only the waits whose interrupt is no longer `open` (or is gone) are
   * woken. The listener listens again before a resync is announced, so a change committed after
   * these reads is announced as usual. Without a reader, or where a read fails, the waits concerned
   * are woken to read for themselves.
   */
  private async resync(): Promise<void> {
    // Announcements may have been missed: nothing is known open any more, nor marked by a wait held now.
    this.resyncs++;
    this.forgetAllOpen();
    const reader = this.statusReader;
    if (reader === undefined) return this.wakeAll('settled');
    const held = new Map<string, string[]>();
    for (const key of this.waiters.keys()) {
      const [organisationId, id] = key.split(':', 2);
      const ids = held.get(organisationId);
      if (ids === undefined) held.set(organisationId, [id]);
      else ids.push(id);
    }
    const batches: [string, string[]][] = [];
    for (const [organisationId, ids] of held)
      for (let i = 0; i < ids.length; i += WAIT_READ_BATCH_MAX)
        batches.push([organisationId, ids.slice(i, i + WAIT_READ_BATCH_MAX)]);
    await Promise.all(
      batches.map(([organisationId, ids]) =>
        this.read(async () => {
          let statuses: ReadonlyMap<string, string> | undefined;
          try {
            statuses = await reader(organisationId, ids);
          } catch (error) {
            this.logger.warn(
              { err: error, organisationId, waits: ids.length },
              'could not read held interrupts after the bus reconnected: their waits read again',
            );
          }
          for (const id of ids)
            if (statuses?.get(id) !== 'open') this.wakeKey(`${organisationId}:${id}`, 'settled');
        }),
      ),
    );
  }

  private wakeKey(key: string, outcome: WaitOutcome): void {
    const held = this.waiters.get(key);
    if (held === undefined) return;
    if (held instanceof Set) for (const waiter of [...held]) waiter.wake(outcome);
    else held.wake(outcome);
  }

  private wakeAll(outcome: WaitOutcome): void {
    for (const key of [...this.waiters.keys()]) this.wakeKey(key, outcome);
  }
}

/** How many interrupts one of a herd's batched reads asks for at most (WaitReadBatches). */
export const WAIT_READ_BATCH_MAX = 250;

/**
 * How long a plain read (a wait's first, or the answer of one that ran its time) waits for others
 * to share its statement before it asks for its turn: a statement costs the instance far more CPU
 * than a row (issue 37 §6: two statements per wait cycle were most of the cycle's database work).
 * The answer of a wait its interrupt's change woke never waits.
 */
export const WAIT_READ_GATHER_MS = 20;

interface BatchedLoad<V> {
  organisationId: string;
  id: string;
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * The held waits' reads of one kind (the record an agent's wait reads), gathered into batches: a
 * load asks for a turn (InterruptWaits.read) and, when the turn comes, the batch takes every load
 * queued by then — up to WAIT_READ_BATCH_MAX, settled answers first — and reads them in one
 * statement per organisation. One wait alone is read at once, as before; a herd of waits ending
 * together costs a few statements instead of one each, 4 at a time (SPEC §8e).
 */
export class WaitReadBatches<V> {
  private readonly queued: { plain: BatchedLoad<V>[]; settled: BatchedLoad<V>[] } = {
    plain: [],
    settled: [],
  };
  /** Whether a batch of that kind has asked for its turn and not started yet. */
  private readonly asked = { plain: false, settled: false };
  /** The plain loads' gathering (WAIT_READ_GATHER_MS), while one runs. */
  private gathering: NodeJS.Timeout | undefined;

  constructor(
    private readonly waits: InterruptWaits,
    private readonly loadMany: (
      organisationId: string,
      ids: readonly string[],
    ) => Promise<ReadonlyMap<string, V>>,
  ) {
    // A stopping instance closes its pool soon after: what was gathering is read now.
    waits.whenStopping(() => {
      clearTimeout(this.gathering);
      this.gathering = undefined;
      this.askTurns();
    });
  }

  /**
   * One interrupt's value (undefined when the organisation has none by that id), in a batch: a
   * settled load asks for its turn at once, a plain one after WAIT_READ_GATHER_MS (or at once when
   * a batch's worth is queued, or the instance is stopping) — and rides any turn that comes sooner.
   */
  load(organisationId: string, id: string, settled = false): Promise<V | undefined> {
    return new Promise<V | undefined>((resolve, reject) => {
      const queue = this.queued[settled ? 'settled' : 'plain'];
      queue.push({ organisationId, id, resolve, reject });
      if (settled || queue.length >= WAIT_READ_BATCH_MAX || this.waits.isStopping) this.askTurns();
      else if (this.gathering === undefined && !this.asked.plain) {
        this.gathering = setTimeout(() => {
          this.gathering = undefined;
          this.askTurns();
        }, WAIT_READ_GATHER_MS);
        this.gathering.unref();
      }
    });
  }

  private askTurns(): void {
    for (const kind of ['settled', 'plain'] as const) {
      if (this.asked[kind] || this.queued[kind].length === 0) continue;
      this.asked[kind] = true;
      void this.waits.read(() => this.run(kind), kind === 'settled');
    }
  }

  private async run(kind: 'plain' | 'settled'): Promise<void> {
    this.asked[kind] = false;
    const batch = this.queued.settled.splice(0, WAIT_READ_BATCH_MAX);
    batch.push(...this.queued.plain.splice(0, WAIT_READ_BATCH_MAX - batch.length));
    // What did not fit asks for another turn now, behind what is already queued.
    this.askTurns();
    const byOrganisation = new Map<string, BatchedLoad<V>[]>();
    for (const load of batch) {
      const loads = byOrganisation.get(load.organisationId);
      if (loads === undefined) byOrganisation.set(load.organisationId, [load]);
      else loads.push(load);
    }
    for (const [organisationId, loads] of byOrganisation) {
      try {
        const values = await this.loadMany(organisationId, [...new Set(loads.map((l) => l.id))]);
        for (const load of loads) load.resolve(values.get(load.id));
      } catch (error) {
        for (const load of loads) load.reject(error);
      }
    }
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
