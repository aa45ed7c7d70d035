import { Client } from 'pg';
import request from 'supertest';
import { signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * A plan change and the organisation's other audited writes, at once. Appending an audit entry
 * locks the organisation's chain head (`audit_log_heads`, held to commit), and any row that refers
 * to the organisation takes a KEY SHARE lock on it (the foreign key's check). A plan change that
 * locked the organisation FOR UPDATE and then appended its own entry waited for the head while
 * holding a lock every such row conflicts with: a write that held the head and then referred to the
 * organisation deadlocked with it, and one of the two answered 500 (seen in the contract test).
 * The plan change locks FOR NO KEY UPDATE: it changes no key, and conflicts with no foreign key.
 */
describe('PUT /api/organisation/plan beside audited writes', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let writer: Client;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    writer = new Client({ connectionString: t.database.url });
    await writer.connect();
  });
  afterAll(async () => {
    await writer?.end();
    await t?.close();
  });

  /** Until the plan change's transaction waits for a lock held by the writer. */
  async function untilWaitingFor(pid: number): Promise<void> {
    const watcher = new Client({ connectionString: t.database.url });
    await watcher.connect();
    try {
      for (let i = 0; i < 600; i++) {
        const { rows } = await watcher.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`,
          [pid],
        );
        if (rows[0].n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the plan change never waited for the writer');
    } finally {
      await watcher.end();
    }
  }

  it('a write holding the chain head, then referring to the organisation, and the plan change both commit', async () => {
    const {
      rows: [{ pid }],
    } = await writer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await writer.query('BEGIN');
    // What the append trigger does first: the organisation's chain head, locked to commit.
    await writer.query(
      'SELECT last_seq FROM audit_log_heads WHERE organisation_id = $1 FOR UPDATE',
      [owner.organisationId],
    );
    const change = request(t.app.getHttpServer())
      .put('/api/organisation/plan')
      .set('cookie', owner.cookie)
      .send({ plan: 'pro' });
    const answered = change.then((res) => res);
    await untilWaitingFor(pid);
    // Then a row referring to the organisation (its foreign key's check takes KEY SHARE).
    await writer.query(
      `INSERT INTO teams (id, organisation_id, name) VALUES (gen_random_uuid(), $1, 'locks')`,
      [owner.organisationId],
    );
    await writer.query('COMMIT');
    const res = await answered;
    expect({ status: res.status, plan: res.body.plan }).toEqual({ status: 200, plan: 'pro' });
  });
});
