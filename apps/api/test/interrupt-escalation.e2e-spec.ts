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

  describe("a team's policy (SPEC §8e)", () => {
    let paymentsId: string;
    const putTeam = (steps: unknown, cookie = owner.cookie, id = paymentsId) =>
      http().put(`/api/teams/${id}/escalation-policy`).set('cookie', cookie).send({ steps });
    const assign = async (id: string, body: Record<string, unknown>) =>
      expect(
        (await http().post(`/api/interrupts/${id}/assign`).set('cookie', owner.cookie).send(body))
          .status,
      ).toBe(200);
    /** When the interrupt last changed hands, as the service recorded it. */
    const changedHandsAt = async (id: string): Promise<number> => {
      const [row] = await t.app
        .get(DataSource)
        .query(
          `SELECT assignee_changed_at FROM interrupts WHERE organisation_id = $1 AND id = $2`,
          [owner.organisationId, id],
        );
      return (row.assignee_changed_at as Date).getTime();
    };

    beforeAll(async () => {
      const team = await http()
        .post('/api/teams')
        .set('cookie', owner.cookie)
        .send({ name: 'Payments' });
      expect(team.status).toBe(201);
      paymentsId = team.body.id as string;
    });

    it('is empty until set; PUT replaces it whole and audits it on the team; bad input 400, others 403, unknown teams 404', async () => {
      const read = () =>
        http().get(`/api/teams/${paymentsId}/escalation-policy`).set('cookie', owner.cookie);
      expect((await read()).body).toEqual({ steps: [] });
      const steps = [
        { afterMinutes: 5, action: 'remind', when: 'undecided', assignTo: null },
        { afterMinutes: 20, action: 'escalate', when: 'undecided', assignTo: { teamId } },
      ];
      const set = await putTeam([
        { afterMinutes: 5, action: 'remind' },
        { afterMinutes: 20, action: 'escalate', assignTo: { teamId } },
      ]);
      expect([set.status, set.body]).toEqual([200, { steps }]);
      expect((await read()).body).toEqual({ steps });
      expect((await putTeam(steps)).status).toBe(200); // unchanged: nothing written
      const audit = await http()
        .get('/api/audit-log?action=team.escalation_policy_updated')
        .set('cookie', owner.cookie);
      expect(audit.body.entries).toHaveLength(1);
      expect(audit.body.entries[0]).toMatchObject({
        targetType: 'team',
        targetId: paymentsId,
        summary: expect.stringMatching(
          /^Escalation policy of team Payments changed \(2 steps\) by /,
        ),
        metadata: { changes: { steps: { from: [], to: steps } } },
      });

      const unassigned = await putTeam([{ afterMinutes: 5, action: 'remind', when: 'unassigned' }]);
      expect(unassigned.status).toBe(400);
      expect(unassigned.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        message:
          "steps.0.when: a team's policy governs only interrupts assigned to the team, so unassigned never holds",
      });
      const later = await putTeam([
        { afterMinutes: 9, action: 'remind' },
        { afterMinutes: 9, action: 'escalate' },
      ]);
      expect([later.status, later.body.message]).toEqual([
        400,
        'steps.1.afterMinutes: must be later than the step before (9)',
      ]);
      const reader = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
        'interrupt.read',
      ]);
      expect(
        (
          await http()
            .get(`/api/teams/${paymentsId}/escalation-policy`)
            .set('cookie', reader.cookie)
        ).body,
      ).toEqual({ steps });
      const refused = await putTeam([], reader.cookie);
      expect([refused.status, refused.body.message]).toEqual([
        403,
        'Missing permission: team.manage.',
      ]);
      const unknown = await putTeam([], owner.cookie, '00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect((await read()).body).toEqual({ steps });
    });

    it("governs the interrupts assigned to the team, from when the team got each; unassigned, the organisation's starts afresh", async () => {
      expect((await put([{ afterMinutes: 3, action: 'remind' }])).status).toBe(200);
      expect(
        (
          await putTeam([
            { afterMinutes: 5, action: 'remind' },
            { afterMinutes: 20, action: 'escalate' },
          ])
        ).status,
      ).toBe(200);
      const { id } = await openInterrupt(t.app.getHttpServer(), key);
      await assign(id, { teamId: paymentsId });
      const got = await changedHandsAt(id);
      const run = (from: number, minutes: number) =>
        lifecycle().escalateDue(new Date(from + minutes * MINUTE));
      const reminders = async () =>
        (await history(id)).filter((h) => h.action === 'interrupt.reminder');

      await run(got, 4.9); // the organisation's 3-minute step does not apply: the team's policy governs
      expect(await reminders()).toEqual([]);
      await run(got, 5);
      await run(got, 6);
      expect((await reminders()).map((h) => h.metadata)).toEqual([
        {
          step: 1,
          afterMinutes: 5,
          assigneeType: 'team',
          assigneeId: paymentsId,
          assigneeName: 'Payments',
          teamId: paymentsId,
          teamName: 'Payments',
        },
      ]);
      await run(got, 20);
      const escalated = (await history(id)).filter((h) => h.action === 'interrupt.escalated');
      expect(escalated.map((h) => [h.actorType, h.metadata])).toEqual([
        [
          'system',
          {
            level: 1,
            reason: 'Escalation policy of team Payments, step 2: undecided after 20 min.',
          },
        ],
      ]);

      // Unassigned: the organisation's policy again, from its first step, counted from then.
      await assign(id, { memberId: null });
      const left = await changedHandsAt(id);
      await run(left, 2.9);
      expect(await reminders()).toHaveLength(1);
      await run(left, 3);
      expect((await reminders()).map((h) => h.metadata)).toEqual([
        expect.objectContaining({ step: 1, teamName: 'Payments' }),
        { step: 1, afterMinutes: 3, assigneeType: null, assigneeId: null, assigneeName: null },
      ]);
    });

    it("an organisation's escalate step that assigns to the team hands the interrupt to the team's policy", async () => {
      expect(
        (await put([{ afterMinutes: 30, action: 'escalate', assignTo: { teamId: paymentsId } }]))
          .status,
      ).toBe(200);
      expect((await putTeam([{ afterMinutes: 10, action: 'remind' }])).status).toBe(200);
      const { id } = await openInterrupt(t.app.getHttpServer(), key);
      const at = await openedAt(id);
      const run = (minutes: number) => lifecycle().escalateDue(new Date(at + minutes * MINUTE));
      await run(30);
      expect((await history(id)).map((h) => h.action)).toEqual([
        'interrupt.created',
        'interrupt.escalated',
        'interrupt.assigned',
      ]);
      expect(await changedHandsAt(id)).toBe(at + 30 * MINUTE);
      await run(39);
      expect((await history(id)).map((h) => h.action)).not.toContain('interrupt.reminder');
      await run(40);
      const reminded = (await history(id)).filter((h) => h.action === 'interrupt.reminder');
      expect(reminded.map((h) => h.metadata)).toEqual([
        expect.objectContaining({ step: 1, afterMinutes: 10, teamId: paymentsId }),
      ]);
      // Without its policy, the team's interrupts follow the organisation's again.
      expect((await putTeam([])).body).toEqual({ steps: [] });
    });

    it('include=escalation shows any reader what the policy did and what comes next, as the job reckons it', async () => {
      expect(
        (
          await put([
            { afterMinutes: 10, action: 'remind' },
            { afterMinutes: 30, action: 'escalate', assignTo: { teamId: paymentsId } },
          ])
        ).status,
      ).toBe(200);
      expect(
        (
          await putTeam([
            { afterMinutes: 15, action: 'escalate', assignTo: { memberId: owner.memberId } },
          ])
        ).status,
      ).toBe(200);
      const { id } = await openInterrupt(t.app.getHttpServer(), key);
      const at = await openedAt(id);
      const iso = (minutes: number) => new Date(at + minutes * MINUTE).toISOString();
      const run = (minutes: number) => lifecycle().escalateDue(new Date(at + minutes * MINUTE));
      // A reader without auditLog.read: the history is refused, the escalation is not.
      const reader = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
        'interrupt.read',
      ]);
      expect(
        (await http().get(`/api/interrupts/${id}?include=history`).set('cookie', reader.cookie))
          .status,
      ).toBe(403);
      const read = async (header: 'cookie' | 'x-api-key', value: string) => {
        const res = await http().get(`/api/interrupts/${id}?include=escalation`).set(header, value);
        expect(res.status).toBe(200);
        return res.body.escalation as {
          policy: string | null;
          team: { id: string; name: string } | null;
          next: Record<string, unknown> | null;
          entries: HistoryEntry[];
        };
      };

      expect(await read('cookie', reader.cookie)).toEqual({
        policy: 'organisation',
        team: null,
        next: {
          step: 1,
          afterMinutes: 10,
          action: 'remind',
          when: 'undecided',
          dueAt: iso(10),
          assignTo: null,
        },
        entries: [],
      });

      await run(10);
      const reminded = await read('x-api-key', key);
      expect(reminded.entries.map((h) => [h.action, h.actorType, h.actorName])).toEqual([
        ['interrupt.reminder', 'system', 'system'],
      ]);
      expect(reminded.next).toEqual({
        step: 2,
        afterMinutes: 30,
        action: 'escalate',
        when: 'undecided',
        dueAt: iso(30),
        assignTo: { type: 'team', id: paymentsId, name: 'Payments' },
      });

      // Escalated to the team: the team's policy governs now, counted from when it got it.
      await run(30);
      const escalated = await read('cookie', reader.cookie);
      expect(escalated.entries.map((h) => h.action)).toEqual([
        'interrupt.reminder',
        'interrupt.escalated',
        'interrupt.assigned',
      ]);
      expect(escalated.entries[1].metadata).toEqual({
        level: 1,
        reason: 'Escalation policy, step 2: undecided after 30 min.',
      });
      expect(escalated.entries[2].metadata).toEqual({
        assigneeType: 'team',
        assigneeId: paymentsId,
        assigneeName: 'Payments',
        previousAssigneeType: null,
        previousAssigneeId: null,
        previousAssigneeName: null,
      });
      expect(escalated.policy).toBe('team');
      expect(escalated.team).toEqual({ id: paymentsId, name: 'Payments' });
      expect(escalated.next).toEqual({
        step: 1,
        afterMinutes: 15,
        action: 'escalate',
        when: 'undecided',
        dueAt: iso(45),
        assignTo: { type: 'member', id: owner.memberId, name: owner.name },
      });

      // Answered: no policy governs it any more; what happened stays.
      expect(
        (
          await http()
            .post(`/api/interrupts/${id}/decisions`)
            .set('cookie', owner.cookie)
            .send({ actionName: 'deploy', decision: 'approve' })
        ).status,
      ).toBe(201);
      const answered = await read('x-api-key', key);
      expect(answered).toMatchObject({ policy: null, team: null, next: null });
      expect(answered.entries).toHaveLength(3);
      expect((await putTeam([])).body).toEqual({ steps: [] });
    });
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
