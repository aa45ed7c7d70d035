import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiKey, setPlan, signUpOwner, startSession } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

// Issue 34 item 3: per-plan quotas on stored session-message bytes and on active sessions, with
// the exact 402 texts (SPEC §4, §8), and the retention job that deletes old messages through the
// job runner — on real Postgres.
describe('session quotas and message retention (SPEC §8; issue 34 item 3)', () => {
  let t: TestApp;
  let ds: DataSource;
  const http = () => request(t.app.getHttpServer());
  const STORAGE_FREE =
    'This organisation has used its included session-message storage (2,000 bytes on the Free plan). Messages are deleted 90 days after they were appended, which frees space; the Pro plan includes 6 KiB.';
  const STORAGE_PRO =
    'This organisation has used its included session-message storage (6 KiB on the Pro plan). Messages are deleted 90 days after they were appended, which frees space.';
  const ACTIVE_FREE =
    'This organisation has as many active sessions as its plan includes (3 on the Free plan). End a session to start another; the Pro plan includes 5 active sessions.';

  const append = (key: string, id: string, contents: string[]) =>
    http()
      .post(`/api/sessions/${id}/messages`)
      .set('x-api-key', key)
      .send({ messages: contents.map((content) => ({ role: 'agent', content })) });
  const one = async <T>(sql: string, params: unknown[]): Promise<T> =>
    ((await ds.query(sql, params)) as { v: T }[])[0].v;
  /** The stored total as the quota keeps it, and the sum of the messages themselves. */
  const storage = async (organisationId: string) => ({
    total: await one<string | null>(
      `SELECT (SELECT message_bytes FROM session_storage_totals WHERE organisation_id = $1)::text AS v`,
      [organisationId],
    ),
    actual: await one<string>(
      `SELECT COALESCE(sum(octet_length(content)), 0)::text AS v FROM session_messages WHERE organisation_id = $1`,
      [organisationId],
    ),
  });

  async function organisation() {
    const owner = await signUpOwner(t.app.getHttpServer());
    const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
    return { owner, key };
  }

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        PLAN_FREE_SESSION_MESSAGE_BYTES: '2000',
        PLAN_PRO_SESSION_MESSAGE_BYTES: '6144',
        PLAN_FREE_ACTIVE_SESSIONS: '3',
        PLAN_PRO_ACTIVE_SESSIONS: '5',
        RATE_LIMIT_API_KEY_REQUESTS: '100000',
      },
    });
    ds = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts the UTF-8 bytes of the content; past the quota appends answer the exact 402 and write nothing; Pro lifts it', async () => {
    const { owner, key } = await organisation();
    const session = await startSession(t.app.getHttpServer(), key);
    // 'é' is 2 bytes, '€' 3: 900 × 2 + 50 × 3 = 1,950 bytes in two messages.
    expect((await append(key, session.id, ['é'.repeat(900), '€'.repeat(50)])).status).toBe(201);
    expect(await storage(owner.organisationId)).toEqual({ total: '1950', actual: '1950' });

    const over = await append(key, session.id, ['x'.repeat(51)]);
    expect(over.status).toBe(402);
    expect(Object.keys(over.body).sort()).toEqual([
      'code',
      'error',
      'message',
      'requestId',
      'statusCode',
    ]);
    expect(over.body).toMatchObject({
      statusCode: 402,
      error: 'Payment Required',
      code: 'SESSION_STORAGE_EXHAUSTED',
      message: STORAGE_FREE,
    });
    // Nothing was written: no message, no count, no bytes.
    expect(await storage(owner.organisationId)).toEqual({ total: '1950', actual: '1950' });
    const read = await http().get(`/api/sessions/${session.id}`).set('x-api-key', key);
    expect(read.body.messageCount).toBe(2);

    // Exactly up to the quota is allowed.
    expect((await append(key, session.id, ['x'.repeat(50)])).status).toBe(201);
    expect(await storage(owner.organisationId)).toEqual({ total: '2000', actual: '2000' });
    expect((await append(key, session.id, ['x'])).status).toBe(402);

    // The quota comes before the action (SPEC §4): an unknown session answers the 402 too.
    const unknown = await append(key, '00000000-0000-4000-8000-000000000000', ['x']);
    expect(unknown.status).toBe(402);

    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    expect((await append(key, session.id, ['y'.repeat(4144)])).status).toBe(201);
    const pro = await append(key, session.id, ['y']);
    expect(pro.status).toBe(402);
    expect(pro.body.message).toBe(STORAGE_PRO);

    // The billing page's usage.
    const org = await http().get('/api/organisation').set('cookie', owner.cookie);
    expect(org.status).toBe(200);
    expect(org.body.usage).toMatchObject({
      sessionMessageBytes: { used: 6144, included: 6144 },
      activeSessions: { used: 1, included: 5 },
      sessionMessageRetentionSeconds: 90 * 86_400,
    });
  });

  it('20 concurrent appends of 100 bytes with 1,000 bytes left: exactly 10 are stored', async () => {
    const { owner, key } = await organisation();
    const session = await startSession(t.app.getHttpServer(), key);
    expect((await append(key, session.id, ['a'.repeat(1000)])).status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => append(key, session.id, ['b'.repeat(100)])),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([
      ...Array<number>(10).fill(201),
      ...Array<number>(10).fill(402),
    ]);
    expect(await storage(owner.organisationId)).toEqual({ total: '2000', actual: '2000' });
    const read = await http().get(`/api/sessions/${session.id}`).set('x-api-key', key);
    expect(read.body.messageCount).toBe(11);
  });

  it('a 4th active session answers the exact 402 and writes nothing; ending one makes room; 10 concurrent starts open exactly 3', async () => {
    const { owner, key } = await organisation();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await startSession(t.app.getHttpServer(), key)).id);
    const fourth = await http().post('/api/sessions').set('x-api-key', key).send({ name: 'four' });
    expect(fourth.status).toBe(402);
    expect(fourth.body).toMatchObject({
      statusCode: 402,
      error: 'Payment Required',
      code: 'ACTIVE_SESSIONS_EXHAUSTED',
      message: ACTIVE_FREE,
    });
    const counts = async () => ({
      sessions: await one<number>(
        `SELECT count(*)::int AS v FROM sessions WHERE organisation_id = $1`,
        [owner.organisationId],
      ),
      audited: await one<number>(
        `SELECT count(*)::int AS v FROM audit_log_entries WHERE organisation_id = $1 AND action = 'session.started'`,
        [owner.organisationId],
      ),
    });
    expect(await counts()).toEqual({ sessions: 3, audited: 3 });

    expect((await http().post(`/api/sessions/${ids[0]}/end`).set('x-api-key', key)).status).toBe(
      200,
    );
    expect(
      (await http().post('/api/sessions').set('x-api-key', key).send({ name: 'again' })).status,
    ).toBe(201);
    const org = await http().get('/api/organisation').set('cookie', owner.cookie);
    expect(org.body.usage.activeSessions).toEqual({ used: 3, included: 3 });

    // A fresh organisation (no running totals yet): concurrent first starts still count each other.
    const fresh = await organisation();
    const starts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        http()
          .post('/api/sessions')
          .set('x-api-key', fresh.key)
          .send({ name: `s${i}` }),
      ),
    );
    expect(starts.map((s) => s.status).sort()).toEqual([
      ...Array<number>(3).fill(201),
      ...Array<number>(7).fill(402),
    ]);
    expect(
      await one<number>(
        `SELECT count(*)::int AS v FROM sessions WHERE organisation_id = $1 AND ended_at IS NULL`,
        [fresh.owner.organisationId],
      ),
    ).toBe(3);
  });

  it('the retention job, run by the job runner, deletes messages past 90 days in batches and frees their bytes', async () => {
    const { owner, key } = await organisation();
    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    const other = await organisation();
    await setPlan(t.app.getHttpServer(), other.owner.cookie, 'pro');
    const old = await startSession(t.app.getHttpServer(), key);
    // 2,500 one-byte messages (more than one batch of the job), then 3 kept ones.
    for (let i = 0; i < 25; i++) {
      expect((await append(key, old.id, Array<string>(100).fill('o'))).status).toBe(201);
    }
    await ds.query(
      `UPDATE session_messages SET created_at = now() - interval '90 days 1 minute' WHERE organisation_id = $1`,
      [owner.organisationId],
    );
    expect((await append(key, old.id, ['kept-1', 'kept-2'])).status).toBe(201);
    await ds.query(
      `UPDATE session_messages SET created_at = now() - interval '89 days 23 hours' WHERE organisation_id = $1 AND content = 'kept-2'`,
      [owner.organisationId],
    );
    // Another organisation's old messages go too; its recent ones stay.
    const theirs = await startSession(t.app.getHttpServer(), other.key);
    expect((await append(other.key, theirs.id, ['old', 'new!'])).status).toBe(201);
    await ds.query(
      `UPDATE session_messages SET created_at = now() - interval '100 days' WHERE organisation_id = $1 AND content = 'old'`,
      [other.owner.organisationId],
    );
    expect(await storage(owner.organisationId)).toEqual({ total: '2512', actual: '2512' });
    // Storage is full for a 6 KiB Pro plan minus 2,512 bytes: 3,700 more is refused now.
    expect((await append(key, old.id, ['z'.repeat(3700)])).status).toBe(402);

    // The job is the runner's: registered in scheduled_jobs; made due, an instance runs it.
    await waitFor(
      async () =>
        (await ds.query(`SELECT 1 FROM scheduled_jobs WHERE name = 'session-message-retention'`))
          .length === 1,
      'session-message-retention to be scheduled',
    );
    await ds.query(
      `UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = 'session-message-retention'`,
    );
    await waitFor(
      async () =>
        (await one<number>(
          `SELECT count(*)::int AS v FROM session_messages WHERE organisation_id = ANY($1)`,
          [[owner.organisationId, other.owner.organisationId]],
        )) === 3,
      'the old messages to be deleted',
    );
    const left = await ds.query(
      `SELECT organisation_id, content FROM session_messages WHERE organisation_id = ANY($1) ORDER BY content`,
      [[owner.organisationId, other.owner.organisationId]],
    );
    expect(left).toEqual([
      { organisation_id: owner.organisationId, content: 'kept-1' },
      { organisation_id: owner.organisationId, content: 'kept-2' },
      { organisation_id: other.owner.organisationId, content: 'new!' },
    ]);
    expect(await storage(owner.organisationId)).toEqual({ total: '12', actual: '12' });
    expect(await storage(other.owner.organisationId)).toEqual({ total: '4', actual: '4' });
    // The session stays, with its count; its freed bytes take new messages.
    const read = await http().get(`/api/sessions/${old.id}`).set('x-api-key', key);
    expect(read.body).toMatchObject({ status: 'active', messageCount: 2502 });
    expect((await append(key, old.id, ['z'.repeat(3700)])).status).toBe(201);
    const org = await http().get('/api/organisation').set('cookie', owner.cookie);
    expect(org.body.usage.sessionMessageBytes).toEqual({ used: 3712, included: 6144 });
  });
});
