import { AUTH_CHANNEL } from '../api-keys/api-key-cache';
import type { Queryable } from '../database/query-rows.util';
import { fakeOf } from '../testing/fake-of';
import { TestBus } from '../testing/test-bus';
import { DeadlineSettingsCache } from './deadline-settings-cache';
import type { DeadlineSettingsRow, OrganisationsRepository } from './organisations.repository';

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const OTHER = '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10';
const db = {} as Queryable;

// The deadline settings a POST reads (SPEC §8e): memory while the bus is trusted, the database
// after an announcement of the organisation, a resync, or while the bus is not trusted.
describe('DeadlineSettingsCache', () => {
  let stored: Map<string, DeadlineSettingsRow & { name: string }>;
  let reads: string[];
  /** Set to hold the next read open until the test lets it answer. */
  let gate: Promise<void> | undefined;
  let bus: TestBus;
  let cache: DeadlineSettingsCache;
  const settings = (defaultSeconds: number | null): DeadlineSettingsRow & { name: string } => ({
    name: 'Acme',
    interrupt_timeout_default_seconds: defaultSeconds,
    interrupt_timeout_max_seconds: null,
    interrupt_timeout_approve_allowed: false,
  });
  const defaultOf = async (organisationId = ORG, now?: number) =>
    (await cache.get(db, organisationId, now))?.interrupt_timeout_default_seconds;

  beforeEach(() => {
    stored = new Map([
      [ORG, settings(600)],
      [OTHER, settings(60)],
    ]);
    reads = [];
    gate = undefined;
    bus = new TestBus();
    const organisations = fakeOf<OrganisationsRepository>({
      deadlineSettings: async (_db: Queryable, organisationId: string) => {
        reads.push(organisationId);
        const row = stored.get(organisationId);
        if (gate !== undefined) await gate;
        return row === undefined ? undefined : { ...row };
      },
    });
    cache = new DeadlineSettingsCache(organisations, bus);
  });

  it('reads an organisation once, then answers from memory', async () => {
    expect(await defaultOf()).toBe(600);
    stored.set(ORG, settings(900));
    expect(await defaultOf()).toBe(600);
    expect(await defaultOf(OTHER)).toBe(60);
    expect(reads).toEqual([ORG, OTHER]);
  });

  it("drops the organisation's entry (only its) on its announcement, and reads the change", async () => {
    await defaultOf();
    await defaultOf(OTHER);
    stored.set(ORG, settings(900));
    stored.set(OTHER, settings(90));
    await bus.publish(AUTH_CHANNEL, `org:${ORG}`);
    expect(await defaultOf()).toBe(900);
    expect(await defaultOf(OTHER)).toBe(60);
    expect(reads).toEqual([ORG, OTHER, ORG]);
  });

  it('changed() announces the organisation, so the next read sees the committed settings', async () => {
    await defaultOf();
    stored.set(ORG, settings(null));
    await cache.changed(ORG);
    expect(await defaultOf()).toBeNull();
  });

  it('does not keep a read that raced an announcement', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const racing = defaultOf();
    // The change commits and is announced while the read is under way (it read the old row).
    stored.set(ORG, settings(900));
    await bus.publish(AUTH_CHANNEL, `org:${ORG}`);
    open();
    expect(await racing).toBe(600);
    gate = undefined;
    expect(await defaultOf()).toBe(900);
    expect(reads).toEqual([ORG, ORG]);
  });

  it('reads every time while the bus is not trusted, and keeps nothing read meanwhile', async () => {
    await defaultOf();
    bus.isHealthy = false;
    stored.set(ORG, settings(900));
    expect(await defaultOf()).toBe(900);
    stored.set(ORG, settings(1200));
    expect(await defaultOf()).toBe(1200);
    bus.isHealthy = true;
    stored.set(ORG, settings(1500));
    expect(await defaultOf()).toBe(1500);
    expect(await defaultOf()).toBe(1500);
    expect(reads).toEqual([ORG, ORG, ORG, ORG]);
  });

  it('forgets every organisation on a resync (announcements may have been missed)', async () => {
    await defaultOf();
    await defaultOf(OTHER);
    stored.set(ORG, settings(900));
    stored.set(OTHER, settings(90));
    bus.resync();
    expect(await defaultOf()).toBe(900);
    expect(await defaultOf(OTHER)).toBe(90);
    expect(reads).toEqual([ORG, OTHER, ORG, OTHER]);
  });

  it('reads again past a minute, and answers undefined for an organisation that is gone', async () => {
    const now = Date.now();
    await defaultOf(ORG, now);
    stored.set(ORG, settings(900));
    expect(await defaultOf(ORG, now + 59_000)).toBe(600);
    expect(await defaultOf(ORG, now + 61_000)).toBe(900);
    stored.delete(ORG);
    await bus.publish(AUTH_CHANNEL, `org:${ORG}`);
    expect(await cache.get(db, ORG)).toBeUndefined();
  });
});
