import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiKey, setPlan, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const MESSAGES_TEXT = 'This organisation has used its included messages for the month';
const HOURS_TEXT = 'This organisation has used its included agent hours for the month';

describe('plans and allowances (SPEC §4, §8; issue 5)', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());
  const interrupt = (key: string, title = 'Deploy') =>
    http().post('/api/interrupts').set('x-api-key', key).send({ title, actionRequests: [{ name: 'deploy' }] });
  const count = async (sql: string, params: unknown[]) => ((await t.app.get(DataSource).query(sql, params)) as { n: number }[])[0].n;

  async function organisation() {
    const owner = await signUpOwner(t.app.getHttpServer());
    const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
    return { owner, key };
  }

  beforeAll(async () => {
    t = await startTestApp({
      env: { PLAN_FREE_MESSAGES: '5', PLAN_PRO_MESSAGES: '15', PLAN_FREE_AGENT_HOURS: '2', PLAN_PRO_AGENT_HOURS: '10' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('the 6th interrupt of the month answers 402 with the exact text and writes nothing; upgrading to Pro lifts it', async () => {
    const { owner, key } = await organisation();
    for (let i = 1; i <= 5; i++) expect((await interrupt(key, `Deploy ${i}`)).status).toBe(201);
    const sixth = await interrupt(key, 'Deploy 6');
    expect(sixth.status).toBe(402);
    expect(Object.keys(sixth.body).sort()).toEqual(['code', 'error', 'message', 'requestId', 'statusCode']);
    expect(sixth.body).toMatchObject({ statusCode: 402, error: 'Payment Required', code: 'MESSAGES_ALLOWANCE_EXHAUSTED' });
    expect(sixth.body.message.startsWith(MESSAGES_TEXT)).toBe(true);
    expect(sixth.body.message).toMatch(/^This organisation has used its included messages for the month \(5 on the Free plan\)\. The allowance renews on \d{4}-\d\d-01 \(UTC\); the Pro plan includes 15 messages a month\.$/);
    expect(await count(`SELECT count(*)::int AS n FROM interrupts WHERE organisation_id = $1`, [owner.organisationId])).toBe(5);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log_entries WHERE organisation_id = $1 AND action = 'interrupt.created'`, [owner.organisationId]),
    ).toBe(5);

    // Validation comes before the allowance (SPEC §4 check order), and the key before both.
    const invalid = await http().post('/api/interrupts').set('x-api-key', key).send({ title: '' });
    expect(invalid.status).toBe(400);
    expect((await http().post('/api/interrupts').set('x-api-key', `${key.slice(0, -1)}x`).send({})).status).toBe(401);
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
    });
  });

  it('50 concurrent opens with 10 left: exactly 10 succeed, the rest answer 402', async () => {
    const { owner, key } = await organisation();
    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    for (let i = 0; i < 5; i++) expect((await interrupt(key)).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => interrupt(key, `Race ${i}`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(results.filter((r) => r.status === 402).every((r) => r.body.code === 'MESSAGES_ALLOWANCE_EXHAUSTED')).toBe(true);
    expect(await count(`SELECT count(*)::int AS n FROM interrupts WHERE organisation_id = $1`, [owner.organisationId])).toBe(15);
    expect(await count(`SELECT messages AS n FROM usage_months WHERE organisation_id = $1`, [owner.organisationId])).toBe(15);
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
    expect((await http().post('/api/sessions').set('x-api-key', key).send({ name: 'a' })).status).toBe(201);
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

    // Validation first; sessions already open keep working (appends are not refused).
    expect((await http().post('/api/sessions').set('x-api-key', key).send({})).status).toBe(400);
    const [open] = await ds.query(`SELECT id FROM sessions WHERE organisation_id = $1 AND name = 'a'`, [owner.organisationId]);
    expect((await http().post(`/api/sessions/${open.id}/messages`).set('x-api-key', key).send({ messages: [{ role: 'agent', content: 'x' }] })).status).toBe(201);

    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    expect((await http().post('/api/sessions').set('x-api-key', key).send({ name: 'c' })).status).toBe(201);
  });
});
