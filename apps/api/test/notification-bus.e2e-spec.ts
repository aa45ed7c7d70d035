import pino from 'pino';
import { Client } from 'pg';
import { PostgresNotificationBus } from '../src/notifications/notification-bus';
import { createTestDatabase, TestDatabase } from './support/test-database';

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The LISTEN connection behind the key cache and the Live View: it must notice when it stops
// receiving, say so (the cache is bypassed meanwhile), reconnect and ask for a resync.
describe('PostgresNotificationBus', () => {
  let db: TestDatabase;
  let publisher: Client;
  let bus: PostgresNotificationBus;
  let resyncs = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    publisher = new Client({ connectionString: db.url });
    await publisher.connect();
    bus = new PostgresNotificationBus(db.url, pino({ level: 'silent' }), (sql, params) => publisher.query(sql, params));
    bus.onResync(() => resyncs++);
    await bus.start();
  });
  afterAll(async () => {
    await bus.close();
    await publisher.end();
    await db.drop();
  });

  it('delivers notifications', async () => {
    const seen: string[] = [];
    bus.subscribe('interlock_test', (p) => seen.push(p));
    await until(() => bus.healthy, 2_000);
    await new Promise((r) => setTimeout(r, 100));
    await bus.publish('interlock_test', 'hello');
    await until(() => seen.includes('hello'), 2_000);
  });

  it('reconnects after its connection is killed, and asks subscribers to resync', async () => {
    const before = resyncs;
    await publisher.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'interlock-listener' AND datname = current_database()`);
    await until(() => !bus.healthy, 2_000);
    await until(() => bus.healthy, 5_000);
    expect(resyncs).toBeGreaterThan(before);
  });

  it('notices a connection that silently stops receiving (its own probe does not come back)', async () => {
    const before = resyncs;
    // Make the listener deaf without an error, as a half-open connection would be.
    const client = (bus as unknown as { client: Client }).client;
    await client.query('UNLISTEN *');
    await until(() => !bus.healthy, 12_000);
    await until(() => bus.healthy, 5_000);
    expect(resyncs).toBeGreaterThan(before);
  }, 30_000);
});
