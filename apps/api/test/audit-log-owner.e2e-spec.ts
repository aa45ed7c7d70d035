import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { AUDIT_OWNER_ROLE } from '../src/database/migrations/1795740000000-audit-log-owner';
import { createApiKey, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * Issue 34 item 12: the role the service runs as cannot switch off the audit log's append-only
 * triggers. Two roles, as the README's security notes set them up: the schema's owner migrates
 * (`DATABASE_MIGRATION_URL`, here the test server's superuser), the service runs as a plain
 * login role (`DATABASE_URL`) that owns nothing; the audit tables and functions belong to
 * `interlock_audit_owner`, a role nobody logs in as.
 */
describe('the audit log is not the service role’s to alter (SPEC §7)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let role: string;
  let asService: Client;
  let asAdmin: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    asAdmin = new Client({ connectionString: database.url });
    await asAdmin.connect();
    role = `interlock_svc_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    await asAdmin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await asAdmin.query(`GRANT CONNECT ON DATABASE ${database.name} TO ${role}`);
    const serviceUrl = new URL(database.url);
    serviceUrl.username = role;
    serviceUrl.password = password;
    t = await startTestApp({
      databaseUrl: serviceUrl.toString(),
      env: { DATABASE_MIGRATION_URL: database.url },
    });
    asService = new Client({ connectionString: serviceUrl.toString() });
    await asService.connect();
  });
  afterAll(async () => {
    await asService?.end();
    await t?.close();
    await asAdmin?.end();
    await database.drop();
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await admin.end();
  });

  it('serves as the plain role: sign-up, a key, an interrupt and its audit entries', async () => {
    const server = t.app.getHttpServer();
    const owner = await signUpOwner(server);
    const { key } = await createApiKey(server, owner.cookie);
    const created = await request(server)
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Deploy?', actionRequests: [{ name: 'deploy' }] });
    expect(created.status).toBe(201);
    const log = await request(server).get('/api/audit-log').set('cookie', owner.cookie);
    expect(log.status).toBe(200);
    expect(log.body.entries.map((e: { action: string }) => e.action)).toContain(
      'interrupt.created',
    );
    const [{ user }] = (await asService.query('SELECT current_user AS user')).rows;
    expect(user).toBe(role);
  });

  it('hands the audit tables and functions to interlock_audit_owner', async () => {
    const tables = await asAdmin.query(
      `SELECT tablename, tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'audit\\_%' ORDER BY tablename`,
    );
    expect(tables.rows).toEqual(
      ['audit_log_entries', 'audit_log_heads', 'audit_log_words'].map((tablename) => ({
        tablename,
        tableowner: AUDIT_OWNER_ROLE,
      })),
    );
    const functions = await asAdmin.query(
      `SELECT DISTINCT pg_get_userbyid(p.proowner) AS owner FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.proname LIKE 'audit\\_%'`,
    );
    expect(functions.rows).toEqual([{ owner: AUDIT_OWNER_ROLE }]);
    const [{ member }] = (
      await asAdmin.query(`SELECT pg_has_role($1, $2, 'MEMBER') AS member`, [
        role,
        AUDIT_OWNER_ROLE,
      ])
    ).rows;
    expect(member).toBe(false);
  });

  it('refuses the service role every way around the append-only triggers', async () => {
    const refused = async (sql: string) => {
      await expect(asService.query(sql)).rejects.toMatchObject({ code: '42501' });
    };
    await refused(
      `ALTER TABLE audit_log_entries DISABLE TRIGGER audit_log_entries_no_update_delete`,
    );
    await refused(`ALTER TABLE audit_log_entries DISABLE TRIGGER ALL`);
    await refused(`ALTER TABLE audit_log_heads DISABLE TRIGGER ALL`);
    await refused(
      `CREATE OR REPLACE FUNCTION audit_log_entries_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
    );
    await refused(`UPDATE audit_log_entries SET summary = 'rewritten'`);
    await refused(`DELETE FROM audit_log_entries`);
    await refused(`TRUNCATE audit_log_entries`);
    await refused(`DELETE FROM audit_log_heads`);
    await refused(`DROP TABLE audit_log_entries`);
    await refused(`ALTER TABLE audit_log_entries OWNER TO ${role}`);
    // It owns nothing else either: no table's triggers are its to switch off.
    await refused(`ALTER TABLE interrupts DISABLE TRIGGER ALL`);
    const [{ n }] = (await asAdmin.query(`SELECT count(*)::int AS n FROM audit_log_entries`)).rows;
    expect(n).toBeGreaterThan(0);
  });
});
