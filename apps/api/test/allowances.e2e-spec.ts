import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource, type QueryRunner } from 'typeorm';
import { auditEntryStatement } from '@interlock/audit';
import { AllowancesRepository } from '../src/allowances/allowances.repository';
import { createApiKey, setPlan, signUpOwner } from './support/factories';
import { SlackStandIn } from './support/slack-stand-in';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

const MESSAGES_TEXT = 'This organisation has used its included messages for the month';
const HOURS_TEXT = 'This organisation has used its included agent hours for the month';
/** The Slack workspace an organisation connects in the refusal's rollback case. */
const BOT_TOKEN = 'xoxb-1111-2222-allowancestoken';
const WORKSPACE = { teamId: 'T0AL', teamName: 'Allowances', botUserId: 'U0BOT', token: BOT_TOKEN };

describe('plans and allowances (SPEC §4, §8; issue 5)', () => {
  let t: TestApp;
  let slack: SlackStandIn;
  const http = () => request(t.app.getHttpServer());
  const interrupt = (key: string, title = 'Deploy') =>
    http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, actionRequests: [{ name: 'deploy' }] });
  const count = async (sql: string, params: unknown[]) =>
    ((await t.app.get(DataSource).query(sql, params)) as { n: number }[])[0].n;

  async function organisation() {
    const owner = await signUpOwner(t.app.getHttpServer());
    const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
    return { owner, key };
  }

  beforeAll(async () => {
    slack = new SlackStandIn(WORKSPACE);
    await slack.start();
    t = await startTestApp({
      env: {
        PLAN_FREE_MESSAGES: '5',
        PLAN_PRO_MESSAGES: '15',
        PLAN_FREE_AGENT_HOURS: '2',
        PLAN_PRO_AGENT_HOURS: '10',
        SLACK_API_URL: slack.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await slack.stop();
  });

  it('the 6th interrupt of the month answers 402 with the exact text and writes nothing; upgrading to Pro lifts it', async () => {
    const { owner, key } = await organisation();
    for (let i = 1; i <= 5; i++) expect((await interrupt(key, `Deploy ${i}`)).status).toBe(201);
    const sixth = await interrupt(key, 'Deploy 6');
    expect(sixth.status).toBe(402);
    expect(Object.keys(sixth.body).sort()).toEqual([
      'code',
      'error',
      'message',
      'requestId',
      'statusCode',
    ]);
    expect(sixth.body).toMatchObject({
      statusCode: 402,
      error: 'Payment Required',
      code: 'MESSAGES_ALLOWANCE_EXHAUSTED',
    });
    expect(sixth.body.message.startsWith(MESSAGES_TEXT)).toBe(true);
    expect(sixth.body.message).toMatch(
      /^This organisation has used its included messages for the month \(5 on the Free plan\)\. The allowance renews on \d{4}-\d\d-01 \(UTC\); the Pro plan includes 15 messages a month\.$/,
    );
    expect(
      await count(`SELECT count(*)::int AS n FROM interrupts WHERE organisation_id = $1`, [
        owner.organisationId,
      ]),
    ).toBe(5);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_log_entries WHERE organisation_id = $1 AND action = 'interrupt.created'`,
        [owner.organisationId],
      ),
    ).toBe(5);

    // Validation comes before the allowance (SPEC §4 check order), and the key before both.
    const invalid = await http().post('/api/interrupts').set('x-api-key', key).send({ title: '' });
    expect(invalid.status).toBe(400);
    expect(
      (
        await http()
          .post('/api/interrupts')
          .set('x-api-key', `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`)
          .send({})
      ).status,
    ).toBe(401);
    // Reading is not metered.
    expect((await http().get('/api/interrupts').set('x-api-key', key)).status).toBe(200);

    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    expect((await interrupt(key, 'Deploy 6')).status).toBe(201);
    const org = await http().get('/api/organisation').set('cookie', owner.cookie);
    expect(org.status).toBe(200);
    expect(org.body.plan).toBe('pro');
    expect(org.body.usage).toEqual({
      month: expect.stringMatching(/^\d{4}-\d\d$/),
      renewsAt: expect.stringMatching(/^\d{4}-\d\d-01T00:00:00\.000Z$/),
      messages: { used: 6, included: 15 },
      agentHours: { used: 0, included: 10 },
      sessionMessageBytes: { used: 0, included: 10 * 1024 ** 3 },
      activeSessions: { used: 0, included: 1000 },
      sessionMessageRetentionSeconds: 90 * 86_400,
    });
  });

  it('a refused open (402) leaves no webhook event, notification or Slack message: its one statement rolls back whole', async () => {
    const { owner, key } = await organisation();
    // A webhook, a Slack connection, and the owner told of every new interrupt: each open writes
    // a row of each, in the statement of its count (interrupt-round-trips e2e).
    const connected = await http()
      .put('/api/notifications/slack')
      .set('cookie', owner.cookie)
      .send({
        botToken: BOT_TOKEN,
        signingSecret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
        channelId: 'C0ALLOWANCES',
      });
    expect(connected.status).toBe(200);
    const hook = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: 'https://example.test/hook', eventTypes: null });
    expect(hook.status).toBe(201);
    const rows = async () => {
      const n: Record<string, number> = {};
      for (const table of [
        'interrupts',
        'webhook_events',
        'webhook_deliveries',
        'notifications',
        'slack_messages',
      ])
        n[table] = await count(
          `SELECT count(*)::int AS n FROM ${table} WHERE organisation_id = $1`,
          [owner.organisationId],
        );
      return n;
    };
    for (let i = 1; i <= 5; i++) expect((await interrupt(key, `Deploy ${i}`)).status).toBe(201);
    const allowed = await rows();
    expect(allowed).toEqual({
      interrupts: 5,
      webhook_events: 5,
      webhook_deliveries: 5,
      notifications: 5,
      slack_messages: 5,
    });
    const refused = await interrupt(key, 'Deploy 6');
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('MESSAGES_ALLOWANCE_EXHAUSTED');
    expect(await rows()).toEqual(allowed);
  });

  it('the count before the statements sent with it when they go one by one: the month’s row is locked before the audit chain’s head, as in the one statement', async () => {
    const { owner, key } = await organisation();
    const organisationId = owner.organisationId;
    // The month's row and the chain's head exist.
    expect((await interrupt(key)).status).toBe(201);
    const ds = t.app.get(DataSource);
    const entry = auditEntryStatement({
      organisationId,
      action: 'interrupt.created',
      actor: { type: 'api_key', id: randomUUID(), name: 'agent' },
      target: { type: 'interrupt', id: randomUUID(), name: 'Deploy' },
      metadata: { externalId: null, actionRequests: ['deploy'] },
    });
    // A comment keeps combineStatements from taking the entry apart: each is sent on its own.
    const alongside = [{ text: `${entry.text} /* on its own */`, values: entry.values }];
    const holder = ds.createQueryRunner();
    const opener = ds.createQueryRunner();
    let counting: Promise<boolean> | undefined;
    const rollBack = async (runner: QueryRunner) => {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
    };
    try {
      await holder.connect();
      await opener.connect();
      // Another open of the organisation holds the month's row.
      await holder.startTransaction();
      await holder.query(`SELECT 1 FROM usage_months WHERE organisation_id = $1 FOR UPDATE`, [
        organisationId,
      ]);
      await opener.startTransaction();
      const [{ pid }] = (await opener.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
      counting = t.app
        .get(AllowancesRepository)
        .countMessage(opener, organisationId, { free: 5, pro: 15 }, alongside);
      await waitFor(
        async () =>
          (
            (await ds.query(
              `SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`,
              [pid],
            )) as unknown[]
          ).length > 0,
        'the count to wait for the month’s row',
      );
      // Waiting for the month's row, it holds nothing of the audit chain: another writer of
      // the organisation's log is not kept waiting behind it (and cannot deadlock with it).
      const head = (await ds.query(
        `SELECT 1 FROM audit_log_heads WHERE organisation_id = $1 FOR UPDATE NOWAIT`,
        [organisationId],
      )) as unknown[];
      expect(head).toHaveLength(1);
      await rollBack(holder);
      expect(await counting).toBe(true);
      // Then the entry went: counted, and the chain's head is the opener's until it ends.
      await expect(
        ds.query(`SELECT 1 FROM audit_log_heads WHERE organisation_id = $1 FOR UPDATE NOWAIT`, [
          organisationId,
        ]),
      ).rejects.toThrow(/could not obtain lock/);
    } finally {
      await rollBack(holder);
      await counting?.catch(() => undefined);
      await rollBack(opener);
      await holder.release();
      await opener.release();
    }
  });

  it('50 concurrent opens with 10 left: exactly 10 succeed, the rest answer 402', async () => {
    const { owner, key } = await organisation();
    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    for (let i = 0; i < 5; i++) expect((await interrupt(key)).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => interrupt(key, `Race ${i}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(
      results
        .filter((r) => r.status === 402)
        .every((r) => r.body.code === 'MESSAGES_ALLOWANCE_EXHAUSTED'),
    ).toBe(true);
    expect(
      await count(`SELECT count(*)::int AS n FROM interrupts WHERE organisation_id = $1`, [
        owner.organisationId,
      ]),
    ).toBe(15);
    expect(
      await count(`SELECT messages AS n FROM usage_months WHERE organisation_id = $1`, [
        owner.organisationId,
      ]),
    ).toBe(15);
  });

  it('counts per UTC calendar month: last month’s use does not count', async () => {
    const { owner, key } = await organisation();
    await t.app.get(DataSource).query(
      `INSERT INTO usage_months (organisation_id, month, messages)
       VALUES ($1, (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date, 5)`,
      [owner.organisationId],
    );
    expect((await interrupt(key)).status).toBe(201);
  });

  it('agent hours: the month’s session time, open sessions up to now, only the part inside the month; spent → 402', async () => {
    const { owner, key } = await organisation();
    const ds = t.app.get(DataSource);
    const session = (startedAt: string, endedAt: string | null) =>
      ds.query(
        `INSERT INTO sessions (organisation_id, id, name, status, started_at, ended_at)
         VALUES ($1, gen_random_uuid(), 'old', $2, ${startedAt}, ${endedAt ?? 'NULL'})`,
        [owner.organisationId, endedAt === null ? 'active' : 'ended'],
      );
    const monthStart = `(date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
    // Entirely last month: does not count. Across the boundary: 30 minutes count.
    await session(`${monthStart} - interval '5 hours'`, `${monthStart} - interval '1 hour'`);
    await session(`${monthStart} - interval '1 hour'`, `${monthStart} + interval '30 minutes'`);
    expect(
      (await http().post('/api/sessions').set('x-api-key', key).send({ name: 'a' })).status,
    ).toBe(201);
    let org = await http().get('/api/organisation').set('cookie', owner.cookie);
    expect(org.body.usage.agentHours.used).toBeGreaterThanOrEqual(0.5);
    expect(org.body.usage.agentHours.used).toBeLessThan(0.52);

    // An open session that began 90 minutes ago: 2 hours are now spent on Free.
    await session(`now() - interval '90 minutes'`, null);
    const refused = await http().post('/api/sessions').set('x-api-key', key).send({ name: 'b' });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('AGENT_HOURS_ALLOWANCE_EXHAUSTED');
    expect(refused.body.message.startsWith(HOURS_TEXT)).toBe(true);
    expect(refused.body.message).toContain('(2 on the Free plan)');
    org = await http().get('/api/organisation').set('cookie', owner.cookie);
    expect(org.body.usage.agentHours).toEqual({ used: expect.any(Number), included: 2 });
    expect(org.body.usage.agentHours.used).toBeGreaterThanOrEqual(2);

    // Validation first.
    expect((await http().post('/api/sessions').set('x-api-key', key).send({})).status).toBe(400);

    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    expect(
      (await http().post('/api/sessions').set('x-api-key', key).send({ name: 'c' })).status,
    ).toBe(201);
  });

  describe('agent hours at append (issue 17, item 1)', () => {
    const HOURS_402 =
      /^This organisation has used its included agent hours for the month \(2 on the Free plan\)\. The allowance renews on \d{4}-\d\d-01 \(UTC\); the Pro plan includes 10 agent hours a month\.$/;
    const append = (key: string, id: string, content = 'x') =>
      http()
        .post(`/api/sessions/${id}/messages`)
        .set('x-api-key', key)
        .send({ messages: [{ role: 'agent', content }] });
    /** An open session started `interval` before now, written as an old instance would (the trigger tracks it). */
    const openSince = async (organisationId: string, interval: string): Promise<string> =>
      (
        await t.app
          .get(DataSource)
          .query(
            `INSERT INTO sessions (organisation_id, id, name, started_at) VALUES ($1, gen_random_uuid(), 'running', now() - $2::interval) RETURNING id`,
            [organisationId, interval],
          )
      )[0].id;
    // The month's agent seconds summed from the sessions themselves, and as the running total keeps
    // them; both read one `now()`, so running sessions add nothing between the two.
    const SCAN_SQL = `SELECT COALESCE(SUM(EXTRACT(EPOCH FROM LEAST(COALESCE(ended_at, now()), utc_next_month_start(utc_month_start(now())))
                                      - GREATEST(started_at, utc_month_start(now())))), 0)::float8
             FROM sessions WHERE organisation_id = $1 AND (ended_at IS NULL OR ended_at > utc_month_start(now()))`;
    const TOTAL_SQL = `SELECT agent_seconds_used(a.month_start, a.ended_seconds, a.open_sessions, a.open_offset_seconds, now())
             FROM organisations o LEFT JOIN agent_hours_totals a ON a.organisation_id = o.id WHERE o.id = $1`;
    const totalSeconds = async (organisationId: string) =>
      (await t.app.get(DataSource).query(`SELECT (${TOTAL_SQL}) AS s`, [organisationId]))[0]
        .s as number;
    /** |running total − scan| at one instant. */
    const drift = async (organisationId: string) =>
      (
        await t.app
          .get(DataSource)
          .query(`SELECT abs((${TOTAL_SQL}) - (${SCAN_SQL})) AS d`, [organisationId])
      )[0].d as number;

    it('once the month’s hours are spent, appends answer the exact 402 and write nothing; the session stays open and can be ended', async () => {
      const { owner, key } = await organisation();
      const a = (
        await http().post('/api/sessions').set('x-api-key', key).send({ name: 'a' }).expect(201)
      ).body.id as string;
      expect((await append(key, a, 'first')).status).toBe(201);

      await openSince(owner.organisationId, '2 hours');
      const refused = await append(key, a, 'second');
      expect(refused.status).toBe(402);
      expect(Object.keys(refused.body).sort()).toEqual([
        'code',
        'error',
        'message',
        'requestId',
        'statusCode',
      ]);
      expect(refused.body).toMatchObject({
        statusCode: 402,
        error: 'Payment Required',
        code: 'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
      });
      expect(refused.body.message.startsWith(HOURS_TEXT)).toBe(true);
      expect(refused.body.message).toMatch(HOURS_402);
      expect(
        await count(`SELECT count(*)::int AS n FROM session_messages WHERE organisation_id = $1`, [
          owner.organisationId,
        ]),
      ).toBe(1);

      // Validation first, the allowance before the session is looked at (SPEC §4), an idempotent retry refused too.
      expect(
        (
          await http()
            .post(`/api/sessions/${a}/messages`)
            .set('x-api-key', key)
            .send({ messages: [] })
        ).status,
      ).toBe(400);
      expect((await append(key, '00000000-0000-4000-8000-000000000000')).status).toBe(402);
      expect((await append(key, a).set('idempotency-key', 'retry-1')).status).toBe(402);
      expect(
        (await http().post('/api/sessions').set('x-api-key', key).send({ name: 'b' })).body.code,
      ).toBe('AGENT_HOURS_ALLOWANCE_EXHAUSTED');

      // Not cut: the session is still active with what it had, and the agent can end it.
      const session = await http().get(`/api/sessions/${a}`).set('x-api-key', key).expect(200);
      expect(session.body).toMatchObject({ status: 'active', messageCount: 1 });
      expect((await http().post(`/api/sessions/${a}/end`).set('x-api-key', key)).status).toBe(200);
      expect((await append(key, a)).status).toBe(402);

      // An upgrade counts at once.
      await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
      const b = (
        await http().post('/api/sessions').set('x-api-key', key).send({ name: 'b' }).expect(201)
      ).body.id as string;
      expect((await append(key, b)).status).toBe(201);
      expect((await append(key, a)).body.code).toBe('CONFLICT');
    });

    it('running sessions count up to now: an append that was allowed is refused once time has run out', async () => {
      const { owner, key } = await organisation();
      await openSince(owner.organisationId, '2 hours -6 seconds');
      const a = (
        await http().post('/api/sessions').set('x-api-key', key).send({ name: 'a' }).expect(201)
      ).body.id as string;
      expect((await append(key, a, 'in time')).status).toBe(201);
      const deadline = Date.now() + 30_000;
      let status = 201;
      while (status === 201 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        status = (await append(key, a)).status;
      }
      expect(status).toBe(402);
      expect(await totalSeconds(owner.organisationId)).toBeGreaterThanOrEqual(7200);
    });

    it('a session spanning two UTC months counts only this month’s part; the totals roll over with the month', async () => {
      const { owner } = await organisation();
      const ds = t.app.get(DataSource);
      const org = owner.organisationId;
      // Months M-2, M-1 (the previous) and M (this one), by their first instants.
      const [{ m1, m0 }] = await ds.query(
        `SELECT utc_month_start(utc_month_start(now()) - interval '1 day') AS m1, utc_month_start(now()) AS m0`,
      );
      const usedAt = async (at: string) =>
        (
          await ds.query(
            `SELECT agent_seconds_used(a.month_start, a.ended_seconds, a.open_sessions, a.open_offset_seconds, $2::timestamptz) AS s
               FROM agent_hours_totals a WHERE a.organisation_id = $1`,
            [org, at],
          )
        )[0].s as number;
      const plus = (at: Date, hours: number) =>
        new Date(at.getTime() + hours * 3_600_000).toISOString();

      // Started 5 hours before M-1, still open: in M-1 it counts from the month's first instant.
      const [{ id }] = await ds.query(
        `INSERT INTO sessions (organisation_id, id, name, started_at) VALUES ($1, gen_random_uuid(), 'long', $2) RETURNING id`,
        [org, plus(m1, -5)],
      );
      expect(await usedAt(plus(m1, -1))).toBeCloseTo(4 * 3600, 3);
      expect(await usedAt(plus(m1, 1))).toBeCloseTo(3600, 3);
      // Ended 2 hours into M-1: M-1 holds 2 hours; M holds none.
      await ds.query(
        `UPDATE sessions SET status = 'ended', ended_at = $3 WHERE organisation_id = $1 AND id = $2`,
        [org, id, plus(m1, 2)],
      );
      expect(await usedAt(plus(m1, 3))).toBeCloseTo(2 * 3600, 3);
      expect(await totalSeconds(org)).toBe(0);
      // Started an hour before M and still open: this month counts it from M's first instant only.
      await ds.query(
        `INSERT INTO sessions (organisation_id, id, name, started_at) VALUES ($1, gen_random_uuid(), 'across', $2)`,
        [org, plus(m0, -1)],
      );
      expect(await usedAt(plus(m0, 0.5))).toBeCloseTo(1800, 3);
      expect(await drift(org)).toBeLessThan(0.01);
      // Two hours are spent this month once it is 2 hours old; the rollover happens at the first event of M.
      expect(await usedAt(plus(m0, 2))).toBeCloseTo(7200, 3);
      await ds.query(
        `INSERT INTO sessions (organisation_id, id, name, started_at, ended_at, status) VALUES ($1, gen_random_uuid(), 'short', now() - interval '1 second', now(), 'ended')`,
        [org],
      );
      const [totals] = await ds.query(
        `SELECT month_start, open_sessions FROM agent_hours_totals WHERE organisation_id = $1`,
        [org],
      );
      expect(totals).toEqual({ month_start: m0, open_sessions: 1 });
      expect(await drift(org)).toBeLessThan(0.01);
    });

    it('concurrent starts, appends and ends keep the running total equal to the sessions’ summed time', async () => {
      const { owner, key } = await organisation();
      await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
      const started = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          http()
            .post('/api/sessions')
            .set('x-api-key', key)
            .send({ name: `s${i}` }),
        ),
      );
      expect(started.map((r) => r.status)).toEqual(Array(12).fill(201));
      const ids = started.map((r) => r.body.id as string);
      await Promise.all(ids.flatMap((id) => [append(key, id), append(key, id)]));
      const ended = await Promise.all(
        ids.slice(0, 8).map((id) => http().post(`/api/sessions/${id}/end`).set('x-api-key', key)),
      );
      expect(ended.map((r) => r.status)).toEqual(Array(8).fill(200));
      const [totals] = await t.app
        .get(DataSource)
        .query(`SELECT open_sessions FROM agent_hours_totals WHERE organisation_id = $1`, [
          owner.organisationId,
        ]);
      expect(totals.open_sessions).toBe(4);
      expect(await drift(owner.organisationId)).toBeLessThan(0.01);
    });
  });
});
