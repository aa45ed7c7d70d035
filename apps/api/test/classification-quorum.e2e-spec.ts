import request from 'supertest';
import {
  builtInRoleIds,
  joinOrganisation,
  type JoinedMember,
  organisationWithKey,
  type OrganisationWithKey,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Quorum from rules (issue 37 §3 "anything over 10,000 needs two approvers", issue 29, SPEC §8d):
 * an enforced route sets an action's requiredApprovals and approverTeam; shadow only records it.
 */
describe('argus routes set the quorum (requiredApprovals, approverTeam)', () => {
  let t: TestApp;
  let org: OrganisationWithKey;
  let members: JoinedMember[];
  let teamId: string;

  const http = () => request(t.app.getHttpServer());
  const rule = (body: Record<string, unknown>) =>
    http()
      .post('/api/classification/rules')
      .set('cookie', org.owner.cookie)
      .send({ name: 'Large payments', mode: 'enforce', match: {}, ...body });
  const open = async (actionRequests: Record<string, unknown>[]) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', org.key)
      .send({ title: 'Pay invoice 117', actionRequests });
    expect(res.status).toBe(201);
    return res;
  };
  const decide = (id: string, cookie: string, body: Record<string, unknown>) =>
    http().post(`/api/interrupts/${id}/decisions`).set('cookie', cookie).send(body);
  const receipts = async (interruptId: string) => {
    const res = await http()
      .get(`/api/audit-log?targetId=${interruptId}&limit=200`)
      .set('cookie', org.owner.cookie);
    expect(res.status).toBe(200);
    return (res.body.entries as { action: string; actorName: string; metadata: unknown }[])
      .reverse()
      .filter((e) => e.action.startsWith('classification.'))
      .map(({ action, actorName, metadata }) => ({ action, actorName, metadata }));
  };

  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    org = await organisationWithKey(server, 'Quorum rules');
    const roles = await builtInRoleIds(server, org.owner.cookie);
    members = [];
    for (const name of ['Mary Manager', 'Grace Hopper', 'Alan Turing'])
      members.push(await joinOrganisation(server, org.owner.cookie, roles.manager, name));
    const team = await http()
      .post('/api/teams')
      .set('cookie', org.owner.cookie)
      .send({ name: 'Finance' });
    expect(team.status).toBe(201);
    teamId = team.body.id;
    for (const m of members.slice(0, 2)) {
      const added = await http()
        .post(`/api/teams/${teamId}/members`)
        .set('cookie', org.owner.cookie)
        .send({ memberId: m.memberId });
      expect(added.status).toBe(204);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('an enforced route over 10,000 needs two Finance approvals: the action is answered only after the second', async () => {
    const saved = await rule({
      match: { actions: ['pay'], args: [{ path: 'amount', op: 'gt', value: 10000 }] },
      outcome: { type: 'route', requiredApprovals: 2, approverTeam: { teamId } },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.outcome).toEqual({
      type: 'route',
      requiredApprovals: 2,
      approverTeam: { teamId },
    });

    const small = await open([{ name: 'pay', args: { amount: 50 } }]);
    expect(small.body.actionRequests[0]).toMatchObject({
      requiredApprovals: 1,
      approverTeam: null,
      allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
    });

    const created = await open([{ name: 'pay', args: { amount: 12000 } }]);
    const id = created.body.id as string;
    expect(created.body.status).toBe('open');
    expect(created.body.actionRequests[0]).toMatchObject({
      name: 'pay',
      requiredApprovals: 2,
      approverTeam: { id: teamId, name: 'Finance' },
      allowedDecisions: ['approve', 'reject', 'respond'],
      approvals: [],
    });
    expect(await receipts(id)).toEqual([
      {
        action: 'classification.applied',
        actorName: 'argus',
        metadata: {
          actionName: 'pay',
          ruleIds: [saved.body.id],
          policyVersion: 1,
          mode: 'enforce',
          outcome: 'route',
          enforced: true,
          requiredApprovals: 2,
          approverTeamId: teamId,
        },
      },
    ]);

    // Someone outside Finance may not decide it.
    const outsider = await decide(id, members[2].cookie, {
      actionName: 'pay',
      decision: 'approve',
    });
    expect(outsider.status).toBe(403);
    expect(outsider.body.message).toBe('Only members of team Finance may decide action pay.');

    const first = await decide(id, members[0].cookie, { actionName: 'pay', decision: 'approve' });
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('open');
    const agentRead = await http().get(`/api/interrupts/${id}`).set('x-api-key', org.key);
    expect(agentRead.body.status).toBe('open');
    expect(agentRead.body.decisions).toEqual([]);

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
  });

  it('a shadow route records the quorum it would set and sets nothing', async () => {
    const saved = await rule({
      name: 'Large transfers (trial)',
      mode: 'shadow',
      match: { actions: ['transfer'] },
      outcome: { type: 'route', requiredApprovals: 3 },
    });
    expect(saved.status).toBe(201);
    const created = await open([{ name: 'transfer', args: { amount: 20000 } }]);
    expect(created.body.actionRequests[0]).toMatchObject({
      requiredApprovals: 1,
      approverTeam: null,
      allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
    });
    expect(await receipts(created.body.id)).toEqual([
      {
        action: 'classification.shadowed',
        actorName: 'argus',
        metadata: {
          actionName: 'transfer',
          ruleIds: [saved.body.id],
          policyVersion: 2,
          mode: 'shadow',
          outcome: 'route',
          enforced: false,
          requiredApprovals: 3,
        },
      },
    ]);
    // One member's approval answers it.
    const decided = await decide(created.body.id, members[2].cookie, {
      actionName: 'transfer',
      decision: 'approve',
    });
    expect(decided.body.status).toBe('answered');
  });

  it("keeps the agent's higher quorum, takes edit out of an explicit list, and still assigns", async () => {
    await rule({
      match: { actions: ['wire'] },
      outcome: { type: 'route', requiredApprovals: 2, assignTo: { teamId } },
    }).expect(201);
    const higher = await open([{ name: 'wire', requiredApprovals: 3 }]);
    expect(higher.body.actionRequests[0]).toMatchObject({ requiredApprovals: 3 });
    expect(higher.body.assignee).toEqual({ type: 'team', id: teamId, name: 'Finance' });

    const withEdit = await open([{ name: 'wire', allowedDecisions: ['approve', 'edit'] }]);
    expect(withEdit.body.actionRequests[0]).toMatchObject({
      requiredApprovals: 2,
      allowedDecisions: ['approve'],
    });

    // An action that allows only edit cannot take a quorum: it keeps one approval, and the receipt says why.
    const editOnly = await open([{ name: 'wire', allowedDecisions: ['edit'] }]);
    expect(editOnly.body.actionRequests[0]).toMatchObject({
      requiredApprovals: 1,
      allowedDecisions: ['edit'],
    });
    const [applied] = await receipts(editOnly.body.id);
    expect(applied.metadata).toMatchObject({
      outcome: 'route',
      enforced: true,
      skipped: 'decision_not_allowed',
    });
  });

  it('an approver team that shrank below the quorum is left out (the quorum stays), and the receipt says so', async () => {
    const team = await http()
      .post('/api/teams')
      .set('cookie', org.owner.cookie)
      .send({ name: 'Treasury' });
    expect(team.status).toBe(201);
    for (const m of members.slice(1, 3))
      await http()
        .post(`/api/teams/${team.body.id}/members`)
        .set('cookie', org.owner.cookie)
        .send({ memberId: m.memberId })
        .expect(204);
    await rule({
      match: { actions: ['sweep'] },
      outcome: { type: 'route', requiredApprovals: 2, approverTeam: { teamId: team.body.id } },
    }).expect(201);
    await http()
      .delete(`/api/teams/${team.body.id}/members/${members[2].memberId}`)
      .set('cookie', org.owner.cookie)
      .expect(204);

    const created = await open([{ name: 'sweep' }]);
    expect(created.body.actionRequests[0]).toMatchObject({
      requiredApprovals: 2,
      approverTeam: null,
    });
    const [applied] = await receipts(created.body.id);
    expect(applied.metadata).toMatchObject({
      outcome: 'route',
      enforced: true,
      requiredApprovals: 2,
      approverTeamId: team.body.id,
      skipped: 'approver_team_unavailable',
    });
  });

  it('refuses a bad quorum with exact texts, an unknown team with 404, a team smaller than the quorum with 400', async () => {
    const bad = async (outcome: Record<string, unknown>, status: number, message?: string) => {
      const res = await rule({ match: { actions: ['x'] }, outcome });
      expect(res.status).toBe(status);
      if (message !== undefined) expect(res.body.message).toBe(message);
    };
    await bad(
      { type: 'route', requiredApprovals: 1 },
      400,
      'outcome.requiredApprovals: must be an integer from 2 to 5',
    );
    await bad(
      { type: 'route', requiredApprovals: 6 },
      400,
      'outcome.requiredApprovals: must be an integer from 2 to 5',
    );
    await bad(
      { type: 'route', requiredApprovals: 2.5 },
      400,
      'outcome.requiredApprovals: must be an integer from 2 to 5',
    );
    await bad(
      { type: 'route', approverTeam: teamId },
      400,
      'outcome.approverTeam: must be {teamId}',
    );
    await bad(
      { type: 'route', approverTeam: { teamId: 'finance' } },
      400,
      'outcome.approverTeam.teamId: must be a UUID',
    );
    await bad(
      { type: 'route', approverTeam: { teamId: '00000000-0000-4000-8000-000000000000' } },
      404,
    );
    await bad(
      { type: 'route', requiredApprovals: 3, approverTeam: { teamId } },
      400,
      'outcome.approverTeam: team Finance has 2 members, fewer than requiredApprovals (3)',
    );
    // A PATCH is checked the same way.
    const saved = await rule({ match: { actions: ['y'] }, outcome: { type: 'route' } });
    expect(saved.status).toBe(201);
    const patched = await http()
      .patch(`/api/classification/rules/${saved.body.id}`)
      .set('cookie', org.owner.cookie)
      .send({ outcome: { type: 'route', requiredApprovals: 5, approverTeam: { teamId } } });
    expect(patched.status).toBe(400);
    expect(patched.body.message).toBe(
      'outcome.approverTeam: team Finance has 2 members, fewer than requiredApprovals (5)',
    );
  });
});
