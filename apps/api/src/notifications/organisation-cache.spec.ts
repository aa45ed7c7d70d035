import { TestBus } from '../testing/test-bus';
import { OrganisationCache, type OrganisationCacheOptions } from './organisation-cache';

const CHANNEL = 'test_channel';
const A = 'a';
const B = 'b';
const C = 'c';

// One bus-invalidated cache per organisation, as the deadline settings and argus's rules use it.
describe('OrganisationCache', () => {
  /** The database as the loader reads it: an organisation's value (absent: it is gone). */
  let stored: Map<string, number>;
  let reads: string[];
  let confirms: string[];
  /** Set to hold the next read open until the test lets it answer. */
  let gate: Promise<void> | undefined;
  let bus: TestBus;
  let cache: OrganisationCache<number | undefined, string>;

  const make = (options: Partial<OrganisationCacheOptions<number | undefined, string>> = {}) =>
    new OrganisationCache<number | undefined, string>(bus, {
      channel: CHANNEL,
      organisationOf: (payload) => (payload.startsWith('org:') ? payload.slice(4) : undefined),
      announcement: (organisationId) => `org:${organisationId}`,
      load: async (organisationId, context) => {
        reads.push(`${organisationId}@${context}`);
        const value = stored.get(organisationId);
        if (gate !== undefined) await gate;
        return value;
      },
      ttlMs: 1_000,
      maxEntries: 2,
      ...options,
    });
  const value = (organisationId = A, now?: number) => cache.get(organisationId, 'tx', now);
  /** A gate the next read waits at, and the function that opens it. */
  const hold = () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    return () => {
      open();
      gate = undefined;
    };
  };

  beforeEach(() => {
    stored = new Map([
      [A, 1],
      [B, 10],
      [C, 100],
    ]);
    reads = [];
    confirms = [];
    gate = undefined;
    bus = new TestBus();
    cache = make();
  });

  it('reads an organisation once through the context given, then answers from memory', async () => {
    expect(await value()).toBe(1);
    stored.set(A, 2);
    expect(await value()).toBe(1);
    expect(reads).toEqual(['a@tx']);
  });

  it("drops the organisation's entry, and only its, on its announcement", async () => {
    await value(A);
    await value(B);
    stored.set(A, 2);
    stored.set(B, 20);
    await bus.publish(CHANNEL, 'org:a');
    // A payload naming no organisation drops nothing.
    await bus.publish(CHANNEL, 'key:b');
    expect(await value(A)).toBe(2);
    expect(await value(B)).toBe(10);
    expect(reads).toEqual(['a@tx', 'b@tx', 'a@tx']);
  });

  it('changed() announces the organisation on the channel and waits for the bus to sync', async () => {
    const heard: string[] = [];
    bus.subscribe(CHANNEL, (payload) => heard.push(payload));
    const sync = jest.spyOn(bus, 'sync');
    await value();
    stored.set(A, 2);
    await cache.changed(A);
    expect(heard).toEqual(['org:a']);
    expect(sync).toHaveBeenCalledTimes(1);
    expect(await value()).toBe(2);
  });

  it('forgets every organisation on a resync', async () => {
    await value(A);
    await value(B);
    stored.set(A, 2);
    stored.set(B, 20);
    bus.resync();
    expect(await value(A)).toBe(2);
    expect(await value(B)).toBe(20);
    expect(reads).toEqual(['a@tx', 'b@tx', 'a@tx', 'b@tx']);
  });

  it.each([
    ['its announcement', () => bus.publish(CHANNEL, 'org:a')],
    ['a resync', () => bus.resync()],
  ])('does not keep a read that raced %s', async (_name, race) => {
    const open = hold();
    const racing = value();
    stored.set(A, 2);
    await race();
    open();
    // The racing read answers what it read, but is not kept.
    expect(await racing).toBe(1);
    expect(await value()).toBe(2);
    expect(reads).toEqual(['a@tx', 'a@tx']);
  });

  it('reads through every time while the bus is not trusted, and keeps nothing read meanwhile', async () => {
    await value();
    bus.isHealthy = false;
    stored.set(A, 2);
    expect(await value()).toBe(2);
    stored.set(A, 3);
    expect(await value()).toBe(3);
    // Trusted again: what was read while it was not is not used.
    bus.isHealthy = true;
    stored.set(A, 4);
    expect(await value()).toBe(4);
    expect(await value()).toBe(4);
    expect(reads).toEqual(['a@tx', 'a@tx', 'a@tx', 'a@tx']);
  });

  it('takes no room for what it reads while the bus is not trusted', async () => {
    await value(A);
    await value(B);
    bus.isHealthy = false;
    await value(C);
    bus.isHealthy = true;
    // A and B are still kept: C did not push A out.
    await value(A);
    await value(B);
    expect(reads).toEqual(['a@tx', 'b@tx', 'c@tx']);
  });

  it('does not keep a read during which the bus stopped being trusted', async () => {
    const open = hold();
    const racing = value();
    bus.isHealthy = false;
    open();
    expect(await racing).toBe(1);
    bus.isHealthy = true;
    stored.set(A, 2);
    expect(await value()).toBe(2);
  });

  it('reads again once an entry is past the TTL', async () => {
    const now = 1_000_000;
    await value(A, now);
    stored.set(A, 2);
    expect(await value(A, now + 999)).toBe(1);
    expect(await value(A, now + 1_000)).toBe(2);
    // Kept again from its new read.
    stored.set(A, 3);
    expect(await value(A, now + 1_999)).toBe(2);
    expect(reads).toEqual(['a@tx', 'a@tx']);
  });

  it('keeps at most maxEntries organisations, the one kept longest first out', async () => {
    await value(A);
    await value(B);
    await value(C);
    expect(reads).toEqual(['a@tx', 'b@tx', 'c@tx']);
    // C pushed A out; B and C are still kept.
    await value(B);
    await value(C);
    expect(reads).toEqual(['a@tx', 'b@tx', 'c@tx']);
    await value(A);
    expect(reads).toEqual(['a@tx', 'b@tx', 'c@tx', 'a@tx']);
  });

  it('does not keep an organisation that is gone', async () => {
    stored.delete(A);
    expect(await value()).toBeUndefined();
    stored.set(A, 1);
    expect(await value()).toBe(1);
    expect(reads).toEqual(['a@tx', 'a@tx']);
  });

  describe('with confirm', () => {
    /** The version the database has; confirm says the kept value is current when it matches. */
    const confirm = async (organisationId: string, kept: number | undefined) => {
      confirms.push(organisationId);
      return stored.get(organisationId) === kept;
    };
    beforeEach(() => {
      cache = make({ confirm });
    });

    it('after a resync, confirms each entry once, then trusts memory again', async () => {
      await value();
      bus.resync();
      expect(await value()).toBe(1);
      expect(await value()).toBe(1);
      expect(confirms).toEqual([A]);
      expect(reads).toEqual(['a@tx']);
    });

    it('while the bus is not trusted, keeps what it reads and confirms it before each use', async () => {
      bus.isHealthy = false;
      expect(await value()).toBe(1);
      expect(await value()).toBe(1);
      expect(confirms).toEqual([A]);
      // Confirmed while the bus was not trusted: confirmed again once it is, then trusted.
      bus.isHealthy = true;
      expect(await value()).toBe(1);
      expect(await value()).toBe(1);
      expect(confirms).toEqual([A, A]);
      // A change whose announcement was missed: the check fails and the value is read again.
      bus.isHealthy = false;
      stored.set(A, 2);
      expect(await value()).toBe(2);
      expect(reads).toEqual(['a@tx', 'a@tx']);
      expect(confirms).toEqual([A, A, A]);
    });

    it('past the TTL, confirms the entry instead of reading it again', async () => {
      const now = 1_000_000;
      await value(A, now);
      expect(await value(A, now + 1_000)).toBe(1);
      expect(await value(A, now + 1_500)).toBe(1);
      expect(confirms).toEqual([A]);
      expect(reads).toEqual(['a@tx']);
    });
  });

  describe('with shareLoads', () => {
    beforeEach(() => {
      cache = make({ shareLoads: true });
    });

    it('lets concurrent reads of one organisation wait for one load', async () => {
      const open = hold();
      const first = value();
      const second = value();
      open();
      expect(await Promise.all([first, second])).toEqual([1, 1]);
      expect(reads).toEqual(['a@tx']);
    });

    it('does not hand a load that raced an announcement to a read that starts after it', async () => {
      const open = hold();
      const first = value();
      stored.set(A, 2);
      await bus.publish(CHANNEL, 'org:a');
      const second = value();
      open();
      expect(await first).toBe(1);
      expect(await second).toBe(2);
    });
  });
});
