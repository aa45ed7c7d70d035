import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  type JoinedMember,
  signUpOwner,
  type SignedUpOwner,
} from './support/factories';
import { SseClient } from './support/sse-client';
import { startTestApp, type TestApp } from './support/test-app';
import { WebhookReceivers } from './support/webhook-receiver';

/** Several approvers (issue 37 §3, SPEC §8e): requiredApprovals, approver teams, races. */
describe('several approvers (requiredApprovals)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let members: JoinedMember[];
  let paymentsTeamId: string;
  let base: string;
  const receivers = new WebhookReceivers();
  const streams: SseClient[] = [];

  const http = () => request(t.app.getHttpServer());
  const open = (actionRequests: Record<string, unknown>[], title = 'Pay invoice 117') =>
    http().post('/api/interrupts').set('x-api-key', key).send({ title, actionRequests });
  const decide = (id: string, cookie: string, body: Record<string, unknown>) =>
    http().post(`/api/interrupts/${id}/decisions`).set('cookie', cookie).send(body);
  const audit = (
    id: string,
  ): Promise<
    { action: string; actor_name: string; summary: string; metadata: Record<string, unknown> }[]
  > =>
    t.app.get(DataSource).query(
      `SELECT action, actor_name, summary, metadata FROM audit_log_entries
          WHERE organisation_id = $1 AND target_id = $2 ORDER BY seq`,
      [owner.organisationId, id],
    );

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_POLL_INTERVAL: '50ms' } });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    const server = t.app.getHttpServer();
    owner = await signUpOwner(server, { name: 'Ada Lovelace' });
    ({ key } = await createApiKey(server, owner.cookie, { name: 'payments-agent' }));
    const roles = await builtInRoleIds(server, owner.cookie);
    members = [];
    for (const name of ['Mary Manager', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra'])
      members.push(await joinOrganisation(server, owner.cookie, roles.manager, name));
    const team = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Payments' });
    expect(team.status).toBe(201);
    paymentsTeamId = team.body.id;
    for (const m of members.slice(0, 2)) {
      const added = await http()
        .post(`/api/teams/${paymentsTeamId}/members`)
        .set('cookie', owner.cookie)
        .send({ memberId: m.memberId });
      expect(added.status).toBe(204);
    }
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t.close();
    await receivers.stopAll();
  });

  it('two approvals answer the action: the first is counted (1 of 2), the same member cannot approve twice, the second decides', async () => {
    const created = await open([{ name: 'pay', args: { amount: 12000 }, requiredApprovals: 2 }]);
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body.actionRequests[0]).toMatchObject({
      name: 'pay',
      allowedDecisions: ['approve', 'reject', 'respond'],
      requiredApprovals: 2,
      approverTeam: null,
      approvals: [],
    });

    const first = await decide(id, members[0].cookie, { actionName: 'pay', decision: 'approve' });
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('open');
    expect(first.body.decisions).toEqual([]);
    expect(first.body.actionRequests[0].approvals).toEqual([
      { memberId: members[0].memberId, memberName: 'Mary Manager', approvedAt: expect.any(String) },
    ]);

    const again = await decide(id, members[0].cookie, { actionName: 'pay', decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'CONFLICT',
      message:
        "You have already approved action pay of this interrupt: it needs another member's approval.",
    });

    // The agent's read (the kept record) shows the progress.
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(read.body.status).toBe('open');
    expect(read.body.actionRequests[0].approvals).toHaveLength(1);

    const second = await decide(id, members[1].cookie, { actionName: 'pay', decision: 'approve' });
    expect(second.status).toBe(201);
    expect(second.body.status).toBe('answered');
    expect(second.body.decisions).toEqual([
      expect.objectContaining({
        actionName: 'pay',
        decision: 'approve',
        decidedBy: { type: 'member', id: members[1].memberId, name: 'Grace Hopper' },
      }),
    ]);
    expect(
      second.body.actionRequests[0].approvals.map((a: { memberName: string }) => a.memberName),
    ).toEqual(['Mary Manager', 'Grace Hopper']);

    const entries = (await audit(id)).filter((e) => e.action !== 'interrupt.created');
    expect(entries.map((e) => [e.action, e.actor_name, e.metadata])).toEqual([
      [
        'interrupt.approval_added',
        'Mary Manager',
        { actionName: 'pay', approvals: 1, requiredApprovals: 2 },
      ],
      [
        'interrupt.decided',
        'Grace Hopper',
        {
          actionName: 'pay',
          decision: 'approve',
          becameAnswered: true,
          approvals: 2,
          requiredApprovals: 2,
        },
      ],
    ]);
    expect(entries[0].summary).toBe(
      'Action pay of interrupt Pay invoice 117 approved by Mary Manager (1 of 2 approvals)',
    );

    // The history shows every approver.
    const history = await http()
      .get(`/api/interrupts/${id}?include=history`)
      .set('cookie', owner.cookie);
    expect(history.status).toBe(200);
    expect(
      history.body.history
        .filter((h: { action: string }) => h.action !== 'interrupt.created')
        .map((h: { actorName: string }) => h.actorName),
    ).toEqual(['Mary Manager', 'Grace Hopper']);
  });

  it('an approval short of the quorum is a live event and a webhook (1 of 2); the approval that meets it is the decision', async () => {
    // A member's dashboard (the organisation's event stream) and an agent's webhook endpoint.
    const stream = await SseClient.open(`${base}/api/events`, { cookie: owner.cookie });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.until(() => stream.events.some((e) => e.event === 'ready'), 30_000);
    const receiver = await receivers.start();
    const hook = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: receiver.url, eventTypes: ['interrupt.approval_added', 'interrupt.answered'] });
    expect(hook.status).toBe(201);

    const created = await open([{ name: 'pay', args: { amount: 9000 }, requiredApprovals: 2 }]);
    const id = created.body.id as string;
    const first = await decide(id, members[0].cookie, { actionName: 'pay', decision: 'approve' });
    expect(first.status).toBe(201);
    const about = (type: string) =>
      stream.events.filter(
        (e) => e.event === type && (e.data.interrupt as { id: string }).id === id,
      );
    await stream.until(() => about('interrupt.approval_added').length === 1, 30_000);
    expect(about('interrupt.approval_added')[0].data).toEqual({
      seq: expect.any(Number),
      type: 'interrupt.approval_added',
      createdAt: expect.any(String),
      actor: { type: 'member', id: members[0].memberId, name: 'Mary Manager' },
      interrupt: { id, title: 'Pay invoice 117' },
      actionName: 'pay',
      approvals: 1,
      requiredApprovals: 2,
    });
    expect(about('interrupt.decided')).toEqual([]);

    await receiver.until(() => receiver.requests.length >= 1, 30_000, 'the approval webhook');
    const [added] = receiver.events();
    expect(added.type).toBe('interrupt.approval_added');
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(added.data).toEqual(read.body);
    expect(added.data).toMatchObject({
      id,
      status: 'open',
      decisions: [],
      actionRequests: [
        {
          name: 'pay',
          requiredApprovals: 2,
          approvals: [{ memberId: members[0].memberId, memberName: 'Mary Manager' }],
        },
      ],
    });
    // Signed as every delivery (Standard Webhooks' reference implementation verifies it).
    expect(
      new Webhook(hook.body.secret).verify(receiver.requests[0].body, receiver.requests[0].headers),
    ).toEqual(added);

    // The second approval decides: interrupt.decided and interrupt.answered, no approval_added.
    const second = await decide(id, members[1].cookie, { actionName: 'pay', decision: 'approve' });
    expect(second.body.status).toBe('answered');
    await stream.until(() => about('interrupt.answered').length === 1, 30_000);
    expect(about('interrupt.approval_added')).toHaveLength(1);
    expect(about('interrupt.decided').map((e) => e.data.actor)).toEqual([
      { type: 'member', id: members[1].memberId, name: 'Grace Hopper' },
    ]);
    await receiver.until(() => receiver.requests.length >= 2, 30_000, 'the answered webhook');
    expect(receiver.events().map((e) => e.type)).toEqual([
      'interrupt.approval_added',
      'interrupt.answered',
    ]);
    const types = await t.app
      .get(DataSource)
      .query(
        `SELECT type FROM webhook_events WHERE organisation_id = $1 AND subject_id = $2 ORDER BY created_at`,
        [owner.organisationId, id],
      );
    expect(types.map((r: { type: string }) => r.type)).toEqual([
      'interrupt.approval_added',
      'interrupt.answered',
    ]);
    const removed = await http()
      .delete(`/api/webhooks/${hook.body.id}`)
      .set('cookie', owner.cookie);
    expect(removed.status).toBe(204);
  });

  it('one rejection rejects, even after approvals; the action then refuses further decisions', async () => {
    const { body } = await open([{ name: 'pay', requiredApprovals: 3 }, { name: 'notify' }]);
    expect(
      (await decide(body.id, members[0].cookie, { actionName: 'pay', decision: 'approve' })).status,
    ).toBe(201);
    const rejected = await decide(body.id, members[1].cookie, {
      actionName: 'pay',
      decision: 'reject',
      message: 'Wrong account.',
    });
    expect(rejected.status).toBe(201);
    expect(rejected.body.status).toBe('open'); // notify is still undecided
    expect(rejected.body.decisions).toEqual([
      expect.objectContaining({ actionName: 'pay', decision: 'reject', message: 'Wrong account.' }),
    ]);
    const late = await decide(body.id, members[2].cookie, {
      actionName: 'pay',
      decision: 'approve',
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Action pay of this interrupt has already been decided.');
    const [decided] = (await audit(body.id)).filter((e) => e.action === 'interrupt.decided');
    expect(decided.metadata).toEqual({
      actionName: 'pay',
      decision: 'reject',
      becameAnswered: false,
      requiredApprovals: 3,
    });
  });

  it('an approver team: only its members decide (403 for others), by id or by name', async () => {
    const { body, status } = await open([
      { name: 'refund', requiredApprovals: 2, approverTeam: { teamName: 'Payments' } },
    ]);
    expect(status).toBe(201);
    expect(body.actionRequests[0].approverTeam).toEqual({ id: paymentsTeamId, name: 'Payments' });
    for (const decision of ['approve', 'reject']) {
      const outsider = await decide(body.id, members[2].cookie, { actionName: 'refund', decision });
      expect(outsider.status).toBe(403);
      expect(outsider.body).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Only members of team Payments may decide action refund.',
      });
    }
    expect(
      (await decide(body.id, members[0].cookie, { actionName: 'refund', decision: 'approve' }))
        .status,
    ).toBe(201);
    const done = await decide(body.id, members[1].cookie, {
      actionName: 'refund',
      decision: 'approve',
    });
    expect(done.body.status).toBe('answered');

    const byId = await open([{ name: 'refund', approverTeam: { teamId: paymentsTeamId } }]);
    expect(byId.status).toBe(201);
    expect(byId.body.actionRequests[0]).toMatchObject({
      requiredApprovals: 1,
      approverTeam: { id: paymentsTeamId, name: 'Payments' },
    });
    expect(
      (await decide(byId.body.id, owner.cookie, { actionName: 'refund', decision: 'approve' }))
        .status,
    ).toBe(403);
    const one = await decide(byId.body.id, members[1].cookie, {
      actionName: 'refund',
      decision: 'approve',
    });
    expect(one.body.status).toBe('answered');
  });

  it('refuses bad requests with 400 and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { name: 'pay', requiredApprovals: 6 },
        'actionRequests.0.requiredApprovals must not be greater than 5',
      ],
      [
        { name: 'pay', requiredApprovals: 0 },
        'actionRequests.0.requiredApprovals must not be less than 1',
      ],
      [
        { name: 'pay', requiredApprovals: 1.5 },
        'actionRequests.0.requiredApprovals must be an integer number',
      ],
      [
        { name: 'pay', requiredApprovals: 2, allowedDecisions: ['approve', 'edit'] },
        'actionRequests.0.allowedDecisions: edit cannot be combined with requiredApprovals above 1',
      ],
      [
        { name: 'pay', approverTeam: { teamName: 'Nobody' } },
        'actionRequests.0.approverTeam: no such team in this organisation',
      ],
      [
        { name: 'pay', requiredApprovals: 3, approverTeam: { teamId: paymentsTeamId } },
        'actionRequests.0.approverTeam: team Payments has 2 members, fewer than requiredApprovals (3)',
      ],
      [
        { name: 'pay', approverTeam: { teamId: paymentsTeamId, teamName: 'Payments' } },
        'actionRequests.0.approverTeam.teamName cannot be given together with teamId',
      ],
      [
        { name: 'pay', approverTeam: {} },
        'actionRequests.0.approverTeam.teamId must be a UUID (or give teamName instead)',
      ],
    ];
    const before = await http().get('/api/interrupts?limit=200').set('x-api-key', key);
    for (const [action, message] of cases) {
      const res = await open([action]);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    const after = await http().get('/api/interrupts?limit=200').set('x-api-key', key);
    expect(after.body.interrupts).toHaveLength(before.body.interrupts.length);
  });

  it('races: five members approving a 3-approval action at once give two counted approvals, one decision and one answered transition', async () => {
    const roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const extra = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.developer,
      'Barbara Liskov',
    );
    const deciders = [...members.map((m) => m.cookie), extra.cookie];
    for (let round = 0; round < 3; round++) {
      const { body } = await open([{ name: 'pay', requiredApprovals: 3 }]);
      const results = await Promise.all(
        deciders.map((cookie) =>
          decide(body.id, cookie, { actionName: 'pay', decision: 'approve' }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409]);
      expect(results.filter((r) => r.body.status === 'answered')).toHaveLength(1);
      const entries = await audit(body.id);
      expect(entries.filter((e) => e.action === 'interrupt.approval_added')).toHaveLength(2);
      expect(entries.filter((e) => e.action === 'interrupt.decided')).toHaveLength(1);
      const read = await http().get(`/api/interrupts/${body.id}`).set('x-api-key', key);
      expect(read.body.status).toBe('answered');
      expect(read.body.decisions).toHaveLength(1);
      expect(read.body.actionRequests[0].approvals).toHaveLength(3);
    }
  });

  it('the last seat taken by two members at once: exactly one answers it, the other gets 409', async () => {
    for (let round = 0; round < 3; round++) {
      const { body } = await open([{ name: 'pay', requiredApprovals: 2 }]);
      expect(
        (await decide(body.id, members[0].cookie, { actionName: 'pay', decision: 'approve' }))
          .status,
      ).toBe(201);
      const [a, b] = await Promise.all(
        [members[1], members[2]].map((m) =>
          decide(body.id, m.cookie, { actionName: 'pay', decision: 'approve' }),
        ),
      );
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      const answered = (await audit(body.id)).filter(
        (e) => e.action === 'interrupt.decided' && e.metadata.becameAnswered === true,
      );
      expect(answered).toHaveLength(1);
    }
  });
});
