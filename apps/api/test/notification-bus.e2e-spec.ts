import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { Client, Pool } from 'pg';
import { BusTiming, PostgresNotificationBus } from '../src/notifications/notification-bus';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const TIMING: BusTiming = { heartbeatMs: 200, leaseMs: 1_000 };

/**
 * Up to three attempts of a timed step (the test machine is shared, and a loaded one can stall
 * this process for longer than a bound's margin): passes when one attempt meets `bound`. A bus
 * that waits out a lease, or keeps trusting itself past one, misses it on every attempt.
 */
async function withinOnce(bound: number, attempt: () => Promise<number>): Promise<void> {
  const seen: number[] = [];
  for (let i = 0; i < 3; i++) {
    seen.push(Math.round(await attempt()));
    if (seen[i] < bound) return;
  }
  throw new Error(`over ${bound} ms on every attempt: ${seen.join(', ')} ms`);
}

// The LISTEN connection behind the key cache and the Live View: it must prove it receives (or
// say it is unhealthy, and the cache is bypassed), reconnect and ask for a resync, and let a
// change wait until every instance has handled it.
describe('PostgresNotificationBus', () => {
  let db: TestDatabase;
  // A pool, as the service's: heartbeats, acknowledgements and publishes may overlap.
  let publisher: Pool;
  const buses: PostgresNotificationBus[] = [];
  let resyncs = 0;

  async function startBus(): Promise<PostgresNotificationBus> {
    const bus = new PostgresNotificationBus(
      db.url,
      pino({ level: 'silent' }),
      (sql, params) => publisher.query(sql, params).then((r) => r.rows),
      TIMING,
    );
    bus.onResync(() => resyncs++);
    await bus.start();
    buses.push(bus);
    return bus;
  }
  const deafen = (bus: PostgresNotificationBus) =>
    (bus as unknown as { client: Client }).client.query('UNLISTEN *');
  /** Resolves once the LISTEN commands the bus has queued (a new subscription's) have run. */
  const listening = (bus: PostgresNotificationBus) => {
    const queued = (bus as unknown as { listening: unknown }).listening;
    if (!(queued instanceof Promise)) throw new Error('the bus no longer queues its LISTENs');
    return queued;
  };

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    publisher = new Pool({ connectionString: db.url, max: 4 });
    // As the service's pool (TypeORM logs it): an idle connection that Postgres ends is dropped
    // and the next query opens another. Unhandled, one failed run T (57P01 on an idle one, the
    // terminating statement's author not found); said here, not thrown from an emitter.
    publisher.on('error', (error) => console.warn(`publisher pool: ${error.message}`));
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await publisher.end();
    await db.drop();
  });

  it('is healthy once its own probe has come back, and delivers notifications', async () => {
    const bus = await startBus();
    expect(bus.healthy).toBe(true);
    const seen: string[] = [];
    bus.subscribe('interlock_test', (p) => seen.push(p));
    await listening(bus);
    await bus.publish('interlock_test', 'hello');
    await until(() => seen.includes('hello'), 2_000);
  });

  it('publishAll delivers each payload, in order, to another instance (one statement)', async () => {
    const sender = await startBus();
    const receiver = await startBus();
    const seen: string[] = [];
    receiver.subscribe('interlock_test_all', (p) => seen.push(p));
    await until(() => receiver.healthy, 2_000);
    await listening(receiver);
    const payloads = Array.from({ length: 300 }, (_, n) => `org:${n}`);
    await sender.publishAll('interlock_test_all', payloads);
    await sender.publishAll('interlock_test_all', []);
    await until(() => seen.length >= payloads.length, 5_000);
    expect(seen).toEqual(payloads);
  });

  it('reconnects after its connection is killed, and asks subscribers to resync', async () => {
    const bus = buses[0];
    const before = resyncs;
    await publisher.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'interlock-listener' AND datname = current_database()`,
    );
    await until(() => !bus.healthy, 2_000);
    await until(() => bus.healthy, 5_000);
    expect(resyncs).toBeGreaterThan(before);
  });

  it('stops trusting itself within a lease when it silently stops receiving, then recovers', async () => {
    const bus = buses[0];
    // The margin over the lease is this process's own lateness in noticing (it polls every
    // 20 ms); one that trusted itself a lease longer, or for ever, misses it every time.
    await withinOnce(TIMING.leaseMs + 300, async () => {
      await until(() => bus.healthy, 5_000);
      const before = resyncs;
      await deafen(bus); // as a half-open connection would be: no error, no notifications
      const deafAt = performance.now();
      await until(() => !bus.healthy, 3_000);
      const untrustedAfter = performance.now() - deafAt;
      await until(() => bus.healthy, 5_000);
      expect(resyncs).toBeGreaterThan(before);
      return untrustedAfter;
    });
  });

  it('sync returns once every live instance has handled what came before it', async () => {
    const one = buses[0];
    const two = await startBus();
    await until(() => one.healthy && two.healthy, 3_000);
    const handled: string[] = [];
    two.subscribe('interlock_test', (p) => handled.push(p));
    await listening(two);
    let change = 0;
    for (let i = 0; i < 5; i++) {
      // Well under the lease that a sync waiting for an answer that never came takes.
      await withinOnce(TIMING.leaseMs, async () => {
        const sent = `change ${change++}`;
        await one.publish('interlock_test', sent);
        const started = performance.now();
        await one.sync();
        const took = performance.now() - started;
        // The other instance handled the change before it acknowledged the barrier.
        expect(handled).toContain(sent);
        return took;
      });
    }
  });

  it('sync waits out the lease of an instance that does not answer, which has stopped trusting its caches by then', async () => {
    const [one, two] = buses;
    await until(() => one.healthy && two.healthy, 3_000);
    await deafen(two);
    const started = performance.now();
    await one.sync();
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMING.leaseMs);
    expect(two.healthy).toBe(false);
  });

  it('an instance that signed off is not waited for', async () => {
    const [one, two] = buses;
    const three = await startBus();
    await until(() => one.healthy && two.healthy && three.healthy, 5_000);
    await three.close();
    await withinOnce(TIMING.leaseMs, async () => {
      const started = performance.now();
      await one.sync();
      return performance.now() - started;
    });
  });
});
