import request from 'supertest';
import { DataSource } from 'typeorm';
import { InterruptLifecycleService } from '../src/interrupts/interrupt-lifecycle.service';
import {
  createApiKey,
  memberWithPermissions,
  openInterrupt,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const MINUTE = 60_000;

interface HistoryEntry {
  action: string;
  actorType: string;
  actorId: string | null;
  actorName: string;
  metadata: Record<string, unknown>;
}

// SPEC §8e: escalation chains. An organisation's policy reminds and escalates open interrupts
// at set times after they opened, as actor system, each step once across instances, each step
// audited and on the interrupt's history, with webhook events (interrupt.reminder,
// interrupt.escalated, interrupt.assigned). The clock is injected (escalateDue(now)), never slept.
describe('escalation policies', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let teamId: string;
  const http = () => request(t.app.getHttpServer());
  const lifecycle = () => t.app.get(InterruptLifecycleService);
  const put = (steps: unknown, cookie = owner.cookie) =>
    http().put('/api/organisation/escalation-policy').set('cookie', cookie).send({ steps });
  const history = async (id: string): Promise<HistoryEntry[]> => {
    const res = await http()
      .get(`/api/interrupts/${id}?include=history`)
      .set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    return res.body.history as HistoryEntry[];
  };
  const webhookEvents = async (id: string): Promise<string[]> =>
    (
      (await t.app
        .get(DataSource)
        .query(
          `SELECT type FROM webhook_events WHERE organisation_id = $1 AND subject_id = $2 ORDER BY created_at, type`,
          [owner.organisationId, id],
        )) as { type: string }[]
    ).map((r) => r.type);
  /** When the interrupt opened, as the service recorded it: the steps count from there. */
  const openedAt = async (id: string): Promise<number> =>
    Date.parse(
      (await http().get(`/api/interrupts/${id}`).set('x-api-key', key)).body.createdAt as string,
    );

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie));
    const team = await http().post('/api/teams').set('cookie', owner.cookie).send({ name: 'SRE' });
    expect(team.status).toBe(201);
    teamId = team.body.id as string;
    // Every event type, so the outbox keeps the events this test looks for.
    expect(
      (
        await http()
          .post('/api/webhooks')
          .set('cookie', owner.cookie)
          .send({ url: 'https://hooks.example.com/interlock' })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is empty until set; PUT replaces it whole, fills its defaults, audits the change, and [] removes it', async () => {
    expect(
      (await http().get('/api/organisation/escalation-policy').set('cookie', owner.cookie)).body,
    ).toEqual({
      steps: [],
    });
    const set = await put([
      { afterMinutes: 10, action: 'remind' },
      { afterMinutes: 30, action: 'escalate', assignTo: { teamId } },
    ]);
    expect(set.status).toBe(200);
    const steps = [
      { afterMinutes: 10, action: 'remind', when: 'undecided', assignTo: null },
      { afterMinutes: 30, action: 'escalate', when: 'undecided', assignTo: { teamId } },
    ];
    expect(set.body).toEqual({ steps });
    expect(
      (await http().get('/api/organisation/escalation-policy').set('cookie', owner.cookie)).body,
    ).toEqual({
      steps,
    });
    // The same again changes nothing and writes nothing.
    expect((await put(steps)).status).toBe(200);
    const audit = await http()
      .get('/api/audit-log?action=settings.escalation_policy_updated')
      .set('cookie', owner.cookie);
    expect(audit.status).toBe(200);
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0].metadata).toEqual({ changes: { steps: { from: [], to: steps } } });
    expect((await put([])).body).toEqual({ steps: [] });
  });

  it('refuses bad policies with 400 and the field, and members without team.manage with 403', async () => {
    const cases: [unknown, string][] = [
      [
        [
          { afterMinutes: 10, action: 'remind' },
          { afterMinutes: 10, action: 'escalate' },
        ],
        'steps.1.afterMinutes: must be later than the step before (10)',
      ],
      [
        [{ afterMinutes: 5, action: 'remind', assignTo: { teamId } }],
        'steps.0.assignTo: only an escalate step assigns',
      ],
      [
        [
          {
            afterMinutes: 5,
            action: 'escalate',
            assignTo: { memberId: '00000000-0000-4000-8000-000000000000' },
          },
        ],
        'steps.0.assignTo: no such member in this organisation',
      ],
      [
        [
          {
            afterMinutes: 5,
            action: 'escalate',
            assignTo: { teamId: '00000000-0000-4000-8000-000000000000' },
          },
        ],
        'steps.0.assignTo: no such team in this organisation',
      ],
    ];
    for (const [steps, message] of cases) {
      const res = await put(steps);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    const bad = await put([{ afterMinutes: 0, action: 'nag' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    const reader = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
      'interrupt.read',
    ]);
    const refused = await put([{ afterMinutes: 5, action: 'remind' }], reader.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing permission: team.manage.');
    expect(
      (await http().get('/api/organisation/escalation-policy').set('cookie', owner.cookie)).body,
    ).toEqual({
      steps: [],
    });
  });

  it('reminds, then escalates to a team, then escalates again — each at its time, once, as system', async () => {
    expect(
      (
        await put([
          { afterMinutes: 10, action: 'remind' },
          { afterMinutes: 30, action: 'escalate', assignTo: { teamId } },
          { afterMinutes: 60, action: 'escalate' },
        ])
      ).status,
    ).toBe(200);
    const { id } = await openInterrupt(t.app.getHttpServer(), key);
    const at = await openedAt(id);
    const run = (minutes: number) => lifecycle().escalateDue(new Date(at + minutes * MINUTE));

    await run(9);
    expect((await history(id)).map((h) => h.action)).toEqual(['interrupt.created']);

    await run(10);
    await run(11); // the same step is not taken twice
    const reminded = await history(id);
    expect(reminded.map((h) => h.action)).toEqual(['interrupt.created', 'interrupt.reminder']);
    expect(reminded[1]).toMatchObject({ actorType: 'system', actorId: null, actorName: 'system' });
    expect(reminded[1].metadata).toEqual({
      step: 1,
      afterMinutes: 10,
      assigneeType: null,
      assigneeId: null,
      assigneeName: null,
    });
    expect(await webhookEvents(id)).toEqual(['interrupt.created', 'interrupt.reminder']);

    await run(30);
    const escalated = await history(id);
    expect(escalated.map((h) => h.action)).toEqual([
      'interrupt.created',
      'interrupt.reminder',
      'interrupt.escalated',
      'interrupt.assigned',
    ]);
    expect(escalated[2].metadata).toEqual({
      level: 1,
      reason: 'Escalation policy, step 2: undecided after 30 min.',
    });
    expect(escalated[3]).toMatchObject({
      actorType: 'system',
      actorName: 'system',
      metadata: { assigneeType: 'team', assigneeId: teamId, assigneeName: 'SRE' },
    });
    const record = (await http().get(`/api/interrupts/${id}`).set('x-api-key', key)).body;
    expect(record).toMatchObject({
      status: 'open',
      assignee: { type: 'team', id: teamId, name: 'SRE' },
    });
    expect(record.escalatedAt).not.toBeNull();

    await run(61);
    await run(600);
    const last = await history(id);
    expect(last.map((h) => h.action)).toEqual([
      'interrupt.created',
      'interrupt.reminder',
      'interrupt.escalated',
      'interrupt.assigned',
      'interrupt.escalated',
    ]);
    expect(last[4].metadata).toEqual({
      level: 2,
      reason: 'Escalation policy, step 3: undecided after 60 min.',
    });
    expect((await webhookEvents(id)).sort()).toEqual(
      [
        'interrupt.assigned',
        'interrupt.created',
        'interrupt.escalated',
        'interrupt.escalated',
        'interrupt.reminder',
      ].sort(),
    );
  });

  it('steps already past act as one: the last due step acts, those before it pass silently', async () => {
    const { id } = await openInterrupt(t.app.getHttpServer(), key);
    expect(
      (
        await put([
          { afterMinutes: 10, action: 'remind' },
          { afterMinutes: 20, action: 'remind' },
          { afterMinutes: 90, action: 'escalate' },
        ])
      ).status,
    ).toBe(200);
    const at = await openedAt(id);
    await lifecycle().escalateDue(new Date(at + 45 * MINUTE));
    const entries = (await history(id)).filter((h) => h.action === 'interrupt.reminder');
    expect(entries).toHaveLength(1);
    expect(entries[0].metadata).toMatchObject({ step: 2, afterMinutes: 20 });
  });

  it('an unassigned step passes an interrupt somebody holds; a decided interrupt takes no step', async () => {
    expect(
      (
        await put([
          { afterMinutes: 10, action: 'remind', when: 'unassigned' },
          { afterMinutes: 20, action: 'remind' },
        ])
      ).status,
    ).toBe(200);
    const held = await openInterrupt(t.app.getHttpServer(), key);
    expect(
      (
        await http()
          .post(`/api/interrupts/${held.id}/assign`)
          .set('cookie', owner.cookie)
          .send({ teamId })
      ).status,
    ).toBe(200);
    const decided = await openInterrupt(t.app.getHttpServer(), key);
    expect(
      (
        await http()
          .post(`/api/interrupts/${decided.id}/decisions`)
          .set('cookie', owner.cookie)
          .send({ actionName: 'deploy', decision: 'approve' })
      ).status,
    ).toBe(201);
    const at = await openedAt(held.id);
    await lifecycle().escalateDue(new Date(at + 15 * MINUTE));
    expect((await history(held.id)).map((h) => h.action)).toEqual([
      'interrupt.created',
      'interrupt.assigned',
    ]);
    await lifecycle().escalateDue(new Date(at + 25 * MINUTE));
    const reminders = (await history(held.id)).filter((h) => h.action === 'interrupt.reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0].metadata).toEqual({
      step: 2,
      afterMinutes: 20,
      assigneeType: 'team',
      assigneeId: teamId,
      assigneeName: 'SRE',
    });
    expect((await history(decided.id)).map((h) => h.action)).not.toContain('interrupt.reminder');
  });

  it('four runs at once take each step once (the row lock)', async () => {
    expect((await put([{ afterMinutes: 5, action: 'remind' }])).status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await openInterrupt(t.app.getHttpServer(), key)).id);
    const at = Math.max(...(await Promise.all(ids.map(openedAt))));
    const now = new Date(at + 6 * MINUTE);
    await Promise.all([1, 2, 3, 4].map(() => lifecycle().escalateDue(now)));
    const counts = await t.app.get(DataSource).query(
      `SELECT target_id, count(*)::int AS n FROM audit_log_entries
        WHERE organisation_id = $1 AND action = 'interrupt.reminder' AND target_id = ANY($2::text[])
        GROUP BY target_id`,
      [owner.organisationId, ids],
    );
    expect(counts).toHaveLength(12);
    for (const row of counts as { n: number }[]) expect(row.n).toBe(1);
  });
});
