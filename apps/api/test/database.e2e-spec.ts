import request from 'supertest';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';
import { migrateUnderLock, revertLastUnderLock } from '../src/database/migrator';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { waitFor } from './support/wait-for';
import { startTestApp, TestApp } from './support/test-app';
import { NotificationBus } from '../src/notifications/notification-bus';

const BUS_NOT_RECEIVING = 'The notification listener is not receiving: see the service log.';

describe('migrations', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 2 });
    await ds.initialize();
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const log = { info: () => undefined };

  it('apply to an empty database, and then the entities and the schema agree', async () => {
    const applied = await migrateUnderLock(ds, log);
    expect(applied).toEqual(MIGRATIONS.map((m) => m.name));
    const drift = await ds.driver.createSchemaBuilder().log();
    // Any query here means an entity changed without a migration: run `nx run api:migration-generate`.
    expect(drift.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('revert completely and apply again', async () => {
    // Migrations that build indexes CONCURRENTLY revert outside a transaction too.
    for (let i = 0; i < MIGRATIONS.length; i++) await revertLastUnderLock(ds, log);
    const tables = await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    );
    expect(tables).toEqual([]);
    await migrateUnderLock(ds, log);
    expect(await ds.showMigrations()).toBe(false);
  });

  it('are timestamped files, in order', () => {
    const stamps = MIGRATIONS.map((m) => Number(/(\d{13})$/.exec(m.name)?.[1]));
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });
});

describe('readiness', () => {
  let t: TestApp;

  beforeAll(async () => {
    // An empty database: the service itself migrates it as it starts.
    t = await startTestApp({ emptyDatabase: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is ready once started (migrations are applied at start)', async () => {
    // Ready also needs the listener's own probe back within its 3 s lease (notification-bus.ts):
    // on a loaded machine the first probe can miss it and the next heartbeat's proves it.
    let res: request.Response | undefined;
    await waitFor(async () => {
      res = await request(t.app.getHttpServer()).get('/health/ready');
      return res.status !== 503 || res.body.message !== BUS_NOT_RECEIVING;
    }, 'the notification listener to hear its probe');
    expect(res?.status).toBe(200);
    expect(res?.body).toEqual({ status: 'ok' });
  });

  it('is not ready while a migration is pending', async () => {
    const ds = t.app.get(DataSource);
    // The migrator's own revert: the last migration may build an index CONCURRENTLY, which
    // cannot be undone inside a transaction.
    const log = { info: () => undefined };
    await revertLastUnderLock(ds, log);
    try {
      const res = await request(t.app.getHttpServer()).get('/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'Database migrations are pending.',
      });
    } finally {
      await migrateUnderLock(ds, log);
    }
    expect((await request(t.app.getHttpServer()).get('/health/ready')).status).toBe(200);
  });

  it('is not ready while the notification listener does not receive, and ready again once it does', async () => {
    // A listener that stops hearing (a half-open connection, a pooler in between) says nothing:
    // only its own probes failing to come back tell.
    const bus = t.app.get(NotificationBus) as unknown as { client: Client };
    await bus.client.query('UNLISTEN *');
    // Each step waits on what the service shows (its readiness, its log), bounded generously: a
    // deaf listener is found a lease (3 s) after a heartbeat, later on a loaded machine.
    let res = await request(t.app.getHttpServer()).get('/health/ready');
    const readinessIs = async (status: number) => {
      res = await request(t.app.getHttpServer()).get('/health/ready');
      return res.status === status;
    };
    await waitFor(() => readinessIs(503), 'the service not ready with a deaf listener');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The notification listener is not receiving: see the service log.',
    });
    const hinted = () =>
      t.logs.some((l) => String(l.msg).includes('set DATABASE_DIRECT_URL to Postgres itself'));
    await waitFor(async () => hinted(), 'the log line that names DATABASE_DIRECT_URL');
    await waitFor(() => readinessIs(200), 'the service ready again once its listener hears');
    expect(res.status).toBe(200);
  });
});
