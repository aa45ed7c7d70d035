import type { DataSource } from 'typeorm';
import { TestBus } from '../testing/test-bus';
import type { ClassificationRulesRepository, RuleRecord } from './classification-rules.repository';
import { CLASSIFICATION_CHANNEL, RuleCache } from './rule-cache';

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const stored = (name: string, updatedAt: string): RuleRecord => ({
  id: `00000000-0000-4000-8000-${name.padStart(12, '0')}`,
  name,
  mode: 'enforce',
  priority: 100,
  match: { actions: [name] },
  outcome: { type: 'approve' },
  expiresAt: null,
  origin: 'member',
  originInterruptId: null,
  paused: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt,
});

// The rule cache (SPEC §8d): memory while the bus is trusted, a version check when it is not.
describe('RuleCache', () => {
  let rows: RuleRecord[];
  let counter: number;
  let bus: TestBus;
  let cache: RuleCache;
  /** A write as the repository makes it: the rows change and the version rises. */
  const write = (next: RuleRecord[]) => {
    rows = next;
    counter++;
  };
  let duringList: (() => void) | undefined;
  const list = jest.fn(async () => {
    const read = [...rows];
    duringList?.();
    duringList = undefined;
    return read;
  });
  const version = jest.fn(async () => String(counter));
  const names = async () => (await cache.rules(ORG)).map((c) => c.rule.name);

  beforeEach(() => {
    rows = [stored('1', '2026-11-26T10:00:00.000Z')];
    counter = 1;
    list.mockClear();
    version.mockClear();
    bus = new TestBus();
    cache = new RuleCache(
      {} as DataSource,
      { list, version } as unknown as ClassificationRulesRepository,
      bus,
    );
  });

  it('serves from memory while the bus is trusted, and reads again after an announced change', async () => {
    expect(await names()).toEqual(['1']);
    expect(await names()).toEqual(['1']);
    expect(list).toHaveBeenCalledTimes(1);
    // Read once with the rules, never checked while the bus is trusted.
    expect(version).toHaveBeenCalledTimes(1);
    write([...rows, stored('2', '2026-11-26T10:01:00.000Z')]);
    await bus.publish(CLASSIFICATION_CHANNEL, ORG);
    expect(await names()).toEqual(['1', '2']);
    expect(list).toHaveBeenCalledTimes(2);
  });

  it('while the bus is not trusted, checks the version before each use and reads again only when it changed', async () => {
    bus.isHealthy = false;
    expect(await names()).toEqual(['1']);
    expect(await names()).toEqual(['1']);
    expect(list).toHaveBeenCalledTimes(1);
    expect(version).toHaveBeenCalledTimes(2);
    // A change whose notification this instance missed: the version says so.
    write([stored('3', '2026-11-26T10:02:00.000Z')]);
    expect(await names()).toEqual(['3']);
    expect(list).toHaveBeenCalledTimes(2);
    // A change that commits after the version was read but while the rules are read: the entry
    // holds the version read first, so it looks old at the next check and is read again.
    duringList = () => write([stored('4', '2026-11-26T10:01:00.000Z')]);
    write([stored('3', '2026-11-26T10:02:00.000Z'), stored('5', '2026-11-26T10:03:00.000Z')]);
    expect(await names()).toEqual(['3', '5']);
    expect(await names()).toEqual(['4']);
    expect(list).toHaveBeenCalledTimes(4);
  });

  it('after a resync, checks the version once, then trusts memory again', async () => {
    expect(await names()).toEqual(['1']);
    bus.resync();
    expect(await names()).toEqual(['1']);
    expect(version).toHaveBeenCalledTimes(2);
    expect(await names()).toEqual(['1']);
    expect(version).toHaveBeenCalledTimes(2);
    expect(list).toHaveBeenCalledTimes(1);
  });
});
