import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { generateApiKey, hashApiKey } from '@interlock/api-keys';
import { verifyAuditChain } from '@interlock/audit';
import { createApp, initApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';
import { createDataSource } from '../src/database/data-source';
import { DatabaseConnection } from '../src/database/database-connection';
import { MIGRATIONS } from '../src/database/migrations';
import { migrateUnderLock } from '../src/database/migrator';
import { createTestDatabase, TestDatabase } from './support/test-database';

const PEPPER = 'online-migrations-pepper-0123456789abcdef';

/** Applies the first `count` migrations (the schema of an older release). */
async function migrateTo(url: string, count: number): Promise<void> {
  const base = createDataSource({ url, poolSize: 1 });
  const ds = new DataSource({ ...base.options, migrations: MIGRATIONS.slice(0, count) });
  await ds.initialize();
  try {
    await migrateUnderLock(ds, { info: () => undefined });
  } finally {
    await ds.destroy();
  }
}

const indexOf = (stamp: string) => MIGRATIONS.findIndex((m) => m.name.endsWith(stamp));

// Issue 19 (migrations under a lock) and issue 17 item 8 (index builds that do not block writes).
describe('migrations with several instances and existing data', () => {
  const dbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });

  it('four instances opening an empty database together migrate it once, and all come up', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, API_KEY_PEPPER: PEPPER });
    const logs: string[][] = [[], [], [], []];
    const connections = await Promise.all(
      logs.map((lines) => DatabaseConnection.open(config, { log: { info: (m) => lines.push(m) } })),
    );
    try {
      const applied = logs.filter((lines) => lines.some((l) => l.startsWith('applied ')));
      expect(applied).toHaveLength(1);
      expect(applied[0].find((l) => l.startsWith('applied '))).toContain(
        `applied ${MIGRATIONS.length} migration(s)`,
      );
      const rows: { name: string; n: string }[] = await connections[0].dataSource.query(
        `SELECT name, count(*)::text AS n FROM migrations GROUP BY name ORDER BY name`,
      );
      expect(rows.map((r) => r.name).sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
      expect(new Set(rows.map((r) => r.n))).toEqual(new Set(['1']));
      for (const c of connections) expect(await c.dataSource.showMigrations()).toBe(false);
    } finally {
      for (const c of connections) await c.close();
    }
  });

  it('every migration applies to a database holding data, and the index builds do not hold back writes', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    const orgs = [randomUUID(), randomUUID()];
    const key = generateApiKey('ilk_');
    try {
      // The first release's schema (organisations, accounts, the audit log before its chain).
      await migrateTo(db.url, indexOf('1795292000000') + 1);
      await sql.query(
        `INSERT INTO organisations (id, name, plan) VALUES ($1, 'Acme', 'pro'), ($2, 'Globex', 'free')`,
        orgs,
      );
      await sql.query(
        `INSERT INTO api_keys (organisation_id, id, name, start, key_hash, created_at) VALUES ($1, $2, 'agent', $3, $4, now())`,
        [orgs[0], randomUUID(), key.slice(0, 12), hashApiKey(key, PEPPER)],
      );
      await sql.query(
        `INSERT INTO audit_log_entries (organisation_id, id, created_at, action, category, actor_type, actor_name, summary)
         SELECT org, gen_random_uuid(), now() - (400 - i) * interval '1 second', 'apiKey.created', 'apiKey', 'member', 'Ops', 'Created key ' || i
           FROM generate_series(1, 300) i, unnest($1::uuid[]) org`,
        [orgs],
      );

      // A later release: the chained audit log with its word lexicon, interrupts and sessions.
      await migrateTo(db.url, indexOf('1795320000000') + 1);
      await sql.query(
        `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_name, summary, search)
         SELECT org, gen_random_uuid(), 'interrupt.created', 'interrupt', 'api_key', 'agent', 'Opened deploy ' || i,
                array_to_tsvector(ARRAY['opened', 'deploy', 'n' || i])
           FROM generate_series(1, 300) i, unnest($1::uuid[]) org`,
        [orgs],
      );
      await sql.query(
        `INSERT INTO sessions (organisation_id, id, name) SELECT org, gen_random_uuid(), 'nightly ' || i FROM generate_series(1, 50) i, unnest($1::uuid[]) org`,
        [orgs],
      );
      await sql.query(
        `INSERT INTO interrupts (organisation_id, id, title, action_requests, created_at)
         SELECT org, gen_random_uuid(), CASE WHEN i % 3 = 0 THEN 'Refund invoice ' || i ELSE 'Rotate the secret ' || i END,
                '[{"name":"act"}]'::jsonb, now() - (400 - i) * interval '1 second'
           FROM generate_series(1, 300) i, unnest($1::uuid[]) org`,
        [orgs],
      );

      // Upgrade to the current release while a reader holds a snapshot open: every concurrent
      // index build waits for that reader, and meanwhile the audit log must keep taking writes.
      const reader = new Client({ connectionString: db.url });
      const writer = new Client({ connectionString: db.url });
      await reader.connect();
      await writer.connect();
      let upgrading: Promise<DatabaseConnection> | undefined;
      try {
        await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        await reader.query('SELECT count(*) FROM audit_log_entries');
        upgrading = DatabaseConnection.open(
          loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, API_KEY_PEPPER: PEPPER }),
        );
        upgrading.catch(() => undefined);
        let waiting: { query: string } | undefined;
        for (let i = 0; i < 300 && waiting === undefined; i++) {
          await new Promise((r) => setTimeout(r, 100));
          [waiting] = (
            await sql.query(
              `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'interlock-migrate'
                  AND wait_event_type = 'Lock'`,
            )
          ).rows as { query: string }[];
        }
        // The migration waits for the reader; an audit write meanwhile must not wait for it.
        expect(waiting).toBeDefined();
        await writer.query(`SET lock_timeout = '3s'`);
        await writer.query(
          `INSERT INTO audit_log_entries (organisation_id, id, action, category, actor_type, actor_name, summary, search)
           VALUES ($1, gen_random_uuid(), 'interrupt.created', 'interrupt', 'api_key', 'agent', 'Opened during the upgrade',
                   array_to_tsvector(ARRAY['opened', 'during', 'upgrade']))`,
          [orgs[0]],
        );
        expect(waiting?.query).toMatch(/^(CREATE|DROP) INDEX CONCURRENTLY .*audit_log_entries/);
      } finally {
        await reader.end();
        await writer.end();
      }
      await (await upgrading).close();

      // Every index is valid, no half-built one is left, and the data reads as before.
      expect(
        (
          await sql.query(
            `SELECT indexrelid::regclass::text AS name FROM pg_index WHERE NOT indisvalid`,
          )
        ).rows,
      ).toEqual([]);
      expect(
        (
          await sql.query(
            `SELECT relname FROM pg_class WHERE relkind = 'i' AND relname LIKE '%\\_next'`,
          )
        ).rows,
      ).toEqual([]);
      const rows = {
        query: async (text: string, params?: unknown[]) => (await sql.query(text, params)).rows,
      };
      expect(await verifyAuditChain(rows, orgs[0])).toEqual({ ok: true, entries: 601 });
      expect(await verifyAuditChain(rows, orgs[1])).toEqual({ ok: true, entries: 600 });

      const { app } = await createApp(
        loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, API_KEY_PEPPER: PEPPER }),
      );
      await initApp(app);
      try {
        const http = () => request(app.getHttpServer());
        const refunds = await http()
          .get('/api/interrupts?q=refund&limit=200')
          .set('x-api-key', key);
        expect(refunds.status).toBe(200);
        expect(refunds.body.interrupts).toHaveLength(100);
        expect(
          new Set(refunds.body.interrupts.map((i: { title: string }) => i.title.split(' ')[0])),
        ).toEqual(new Set(['Refund']));
        // Sessions started before the name search are found by name (the backfill).
        const nightly = await http().get('/api/sessions?q=nightly&limit=200').set('x-api-key', key);
        expect(nightly.status).toBe(200);
        expect(nightly.body.sessions).toHaveLength(50);
        const seventh = await http().get('/api/sessions?q=NIGHTLY%207').set('x-api-key', key);
        expect(seventh.body.sessions.map((s: { name: string }) => s.name)).toEqual(['nightly 7']);
        const during = await http().get('/api/audit-log?q=upgrade').set('x-api-key', key);
        expect(during.status).toBe(200);
        expect(during.body.entries.map((e: { summary: string }) => e.summary)).toEqual([
          'Opened during the upgrade',
        ]);
        const deploys = await http().get('/api/audit-log?q=deploy&limit=200').set('x-api-key', key);
        expect(deploys.body.entries).toHaveLength(200);
        expect(deploys.body.nextCursor).not.toBeNull();
      } finally {
        await app.close();
      }
    } finally {
      await sql.end();
    }
  });
});
