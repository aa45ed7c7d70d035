import { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';
import { NotificationBus } from '../notifications/notification-bus';
import type { ClassificationRulesRepository, RuleRecord } from './classification-rules.repository';
import { CLASSIFICATION_CHANNEL, RuleCache } from './rule-cache';

/** A bus whose health the test sets, and which resyncs on demand. */
class TestBus extends NotificationBus {
  isHealthy = true;
  private readonly emitter = new EventEmitter();
  get healthy(): boolean {
    return this.isHealthy;
  }
  async publish(channel: string, payload: string): Promise<void> {
    this.emitter.emit(channel, payload);
  }
  subscribe(channel: string, handler: (payload: string) => void): () => void {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }
  onResync(handler: () => void): () => void {
    this.emitter.on('resync', handler);
    return () => this.emitter.off('resync', handler);
  }
  resync(): void {
    this.emitter.emit('resync');
  }
  async sync(): Promise<void> {
    return undefined;
  }
  async close(): Promise<void> {
    return undefined;
  }
}

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
  let bus: TestBus;
  let cache: RuleCache;
  const list = jest.fn(async () => [...rows]);
  const version = jest.fn(async () => {
    let latest = '';
    for (const r of rows) if (r.updatedAt > latest) latest = r.updatedAt;
    return `${rows.length}:${latest}`;
  });
  const names = async () => (await cache.rules(ORG)).map((c) => c.rule.name);

  beforeEach(() => {
    rows = [stored('1', '2026-11-26T10:00:00.000Z')];
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
    expect(version).not.toHaveBeenCalled();
    rows.push(stored('2', '2026-11-26T10:01:00.000Z'));
    await bus.publish(CLASSIFICATION_CHANNEL, ORG);
    expect(await names()).toEqual(['1', '2']);
    expect(list).toHaveBeenCalledTimes(2);
  });

  it('while the bus is not trusted, checks the version before each use and reads again only when it changed', async () => {
    bus.isHealthy = false;
    expect(await names()).toEqual(['1']);
    expect(await names()).toEqual(['1']);
    expect(list).toHaveBeenCalledTimes(1);
    expect(version).toHaveBeenCalledTimes(1);
    // A change whose notification this instance missed: the version says so.
    rows = [stored('3', '2026-11-26T10:02:00.000Z')];
    expect(await names()).toEqual(['3']);
    expect(list).toHaveBeenCalledTimes(2);
    // A delete lowers the count, even if the latest change stays.
    rows = [stored('3', '2026-11-26T10:02:00.000Z'), stored('4', '2026-11-26T10:02:00.000Z')];
    expect(await names()).toEqual(['3', '4']);
    rows = [rows[1]];
    expect(await names()).toEqual(['4']);
  });

  it('after a resync, checks the version once, then trusts memory again', async () => {
    expect(await names()).toEqual(['1']);
    bus.resync();
    expect(await names()).toEqual(['1']);
    expect(version).toHaveBeenCalledTimes(1);
    expect(await names()).toEqual(['1']);
    expect(version).toHaveBeenCalledTimes(1);
    expect(list).toHaveBeenCalledTimes(1);
  });
});
