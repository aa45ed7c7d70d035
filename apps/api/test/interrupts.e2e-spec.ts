import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  memberWithPermissions,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { InterruptOpenedByName1795774000000 } from '../src/database/migrations/1795774000000-interrupt-opened-by-name';
import { startTestApp, TestApp } from './support/test-app';

const NIL = '00000000-0000-4000-8000-000000000000';

interface AuditRow {
  action: string;
  actor_type: string;
  actor_id: string;
  actor_name: string;
  target_type: string;
  target_id: string;
  target_name: string;
  summary: string;
  metadata: Record<string, unknown> | null;
}

describe('interrupts (SPEC §5, §6; issue 5)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let keyId: string;
  let other: SignedUpOwner;
  let otherKey: string;
  let manager: { cookie: string; memberId: string };

  const http = () => request(t.app.getHttpServer());
  const open = (body: Record<string, unknown>, apiKey = key) =>
    http().post('/api/interrupts').set('x-api-key', apiKey).send(body);
  const twoActions = (title = 'Deploy to prod', extra: Record<string, unknown> = {}) => ({
    title,
    actionRequests: [
      { name: 'deploy', args: { service: 'api', version: '1.4.2' }, description: 'Roll out 1.4.2' },
      { name: 'notify', allowedDecisions: ['approve', 'respond'] },
    ],
    ...extra,
  });

  async function audit(targetId: string): Promise<AuditRow[]> {
    return t.app.get(DataSource).query(
      `SELECT action, actor_type, actor_id, actor_name, target_type, target_id, target_name, summary, metadata
         FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2 ORDER BY seq`,
      [owner.organisationId, targetId],
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    owner = await signUpOwner(server, { name: 'Ada Lovelace' });
    ({ key, id: keyId } = await createApiKey(server, owner.cookie, { name: 'ci-runner' }));
    other = await signUpOwner(server, {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    ({ key: otherKey } = await createApiKey(server, other.cookie));
    const roles = await builtInRoleIds(server, owner.cookie);
    manager = await joinOrganisation(server, owner.cookie, roles.manager, 'Mary Manager');
  });
  afterAll(async () => {
    await t.close();
  });

  it('round trip: a key opens two actions, members decide them one by one, the key reads both decisions', async () => {
    const created = await open(
      twoActions('Deploy to prod', { externalId: 'run-42', metadata: { pr: 7 } }),
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Deploy to prod',
      description: null,
      externalId: 'run-42',
      sessionId: null,
      status: 'open',
      actionRequests: [
        {
          name: 'deploy',
          args: { service: 'api', version: '1.4.2' },
          description: 'Roll out 1.4.2',
          allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
          responseSchema: null,
          actionDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
          requiredApprovals: 1,
          approverTeam: null,
          approvals: [],
        },
        {
          name: 'notify',
          args: {},
          description: null,
          allowedDecisions: ['approve', 'respond'],
          responseSchema: null,
          actionDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
          requiredApprovals: 1,
          approverTeam: null,
          approvals: [],
        },
      ],
      decisions: [],
      assignee: null,
      escalationLevel: 0,
      escalationReason: null,
      escalatedAt: null,
      metadata: { pr: 7 },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      answeredAt: null,
      expiresAt: null,
      onTimeout: null,
      closedAt: null,
      withdrawnReason: null,
      openedBy: { type: 'api_key', id: keyId, name: 'ci-runner' },
      risk: null,
      labels: [],
      classifierLabels: [],
      priority: 'normal',
    });

    const first = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', owner.cookie)
      .send({
        actionName: 'deploy',
        decision: 'edit',
        editedArgs: { service: 'api', version: '1.4.3' },
      });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id, status: 'open', answeredAt: null });
    expect(first.body.decisions).toEqual([
      {
        id: expect.any(String),
        actionName: 'deploy',
        decision: 'edit',
        editedArgs: { service: 'api', version: '1.4.3' },
        editedName: null,
        message: null,
        response: null,
        actionDigest: created.body.actionRequests[0].actionDigest,
        editedActionDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        decidedBy: { type: 'member', id: owner.memberId, name: 'Ada Lovelace' },
        decidedAt: expect.stringMatching(/Z$/),
      },
    ]);

    const second = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', manager.cookie)
      .send({ actionName: 'notify', decision: 'respond', message: 'Tell #ops after the rollout.' });
    expect(second.status).toBe(201);
    expect(second.body.status).toBe('answered');
    expect(second.body.answeredAt).toEqual(expect.stringMatching(/Z$/));

    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('answered');
    expect(
      read.body.decisions.map(
        (d: {
          actionName: string;
          decision: string;
          message: string | null;
          decidedBy: { name: string };
        }) => [d.actionName, d.decision, d.message, d.decidedBy.name],
      ),
    ).toEqual([
      ['deploy', 'edit', null, 'Ada Lovelace'],
      ['notify', 'respond', 'Tell #ops after the rollout.', 'Mary Manager'],
    ]);

    expect(await audit(id)).toEqual([
      expect.objectContaining({
        action: 'interrupt.created',
        actor_type: 'api_key',
        actor_id: keyId,
        actor_name: 'ci-runner',
        target_type: 'interrupt',
        target_name: 'Deploy to prod',
        summary: 'Interrupt Deploy to prod opened by key ci-runner',
        metadata: { externalId: 'run-42', actionRequests: ['deploy', 'notify'] },
      }),
      expect.objectContaining({
        action: 'interrupt.decided',
        actor_type: 'member',
        actor_id: owner.memberId,
        summary: 'Action deploy of interrupt Deploy to prod approved with edits by Ada Lovelace',
        metadata: { actionName: 'deploy', decision: 'edit', becameAnswered: false },
      }),
      expect.objectContaining({
        action: 'interrupt.decided',
        actor_name: 'Mary Manager',
        summary: 'Action notify of interrupt Deploy to prod answered by Mary Manager',
        metadata: { actionName: 'notify', decision: 'respond', becameAnswered: true },
      }),
    ]);
  });

  it.each([
    ['missing title', { actionRequests: [{ name: 'a' }] }, 'title'],
    [
      '201-character title',
      { title: 'x'.repeat(201), actionRequests: [{ name: 'a' }] },
      'title must be shorter than or equal to 200 characters',
    ],
    ['blank title', { title: '   ', actionRequests: [{ name: 'a' }] }, 'title must not be blank'],
    [
      'no action requests',
      { title: 't', actionRequests: [] },
      'actionRequests must contain at least 1 elements',
    ],
    [
      '21 action requests',
      { title: 't', actionRequests: Array.from({ length: 21 }, (_, i) => ({ name: `a${i}` })) },
      'actionRequests must contain no more than 20 elements',
    ],
    ['missing action requests', { title: 't' }, 'actionRequests'],
    [
      'duplicate action names',
      { title: 't', actionRequests: [{ name: 'a' }, { name: 'a' }] },
      'actionRequests must have unique names',
    ],
    [
      'non-object args',
      { title: 't', actionRequests: [{ name: 'a', args: [1, 2] }] },
      'actionRequests.0.args must be an object',
    ],
    [
      'string args',
      { title: 't', actionRequests: [{ name: 'a', args: 'x' }] },
      'actionRequests.0.args must be an object',
    ],
    [
      'unknown allowed decision',
      { title: 't', actionRequests: [{ name: 'a', allowedDecisions: ['maybe'] }] },
      'actionRequests.0.allowedDecisions',
    ],
    ['action request not an object', { title: 't', actionRequests: ['a'] }, 'actionRequests'],
    [
      'unknown field',
      { title: 't', actionRequests: [{ name: 'a' }], colour: 'red' },
      'property colour should not exist',
    ],
    [
      'unknown field in an action',
      { title: 't', actionRequests: [{ name: 'a', action: 'x' }] },
      'property actionRequests.0.action should not exist',
    ],
    [
      'non-object metadata',
      { title: 't', actionRequests: [{ name: 'a' }], metadata: 'x' },
      'metadata must be an object',
    ],
    [
      'malformed sessionId',
      { title: 't', actionRequests: [{ name: 'a' }], sessionId: 'abc' },
      'sessionId must be a UUID',
    ],
  ])('refuses a body with %s: 400 naming the field', async (_label, body, expected) => {
    const res = await open(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.body.message).toContain(expected);
  });

  it('opens an interrupt with 20 actions of the same session, and refuses another organisation’s session with 404', async () => {
    const session = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 'nightly' });
    expect(session.status).toBe(201);
    const many = await open({
      title: 'x'.repeat(200),
      actionRequests: Array.from({ length: 20 }, (_, i) => ({ name: `a${i}` })),
      sessionId: session.body.id,
    });
    expect(many.status).toBe(201);
    expect(many.body.sessionId).toBe(session.body.id);
    const foreign = await open(
      { title: 't', actionRequests: [{ name: 'a' }], sessionId: session.body.id },
      otherKey,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
  });

  it.each([
    [
      'unknown decision',
      { actionName: 'deploy', decision: 'maybe' },
      'decision must be one of the following values',
    ],
    [
      'edit without editedArgs',
      { actionName: 'deploy', decision: 'edit' },
      'editedArgs must be an object',
    ],
    [
      'edit with non-object editedArgs',
      { actionName: 'deploy', decision: 'edit', editedArgs: [1] },
      'editedArgs must be an object',
    ],
    [
      'editedArgs with approve',
      { actionName: 'deploy', decision: 'approve', editedArgs: {} },
      'editedArgs is only allowed with decision edit',
    ],
    [
      'editedName with approve',
      { actionName: 'deploy', decision: 'approve', editedName: 'x' },
      'editedName is only allowed with decision edit',
    ],
    [
      'a blank editedName',
      { actionName: 'deploy', decision: 'edit', editedArgs: {}, editedName: ' ' },
      'editedName must not be blank',
    ],
    [
      'an editedName over 200 characters',
      { actionName: 'deploy', decision: 'edit', editedArgs: {}, editedName: 'x'.repeat(201) },
      'editedName must be shorter than or equal to 200 characters',
    ],
    [
      'a non-string editedName',
      { actionName: 'deploy', decision: 'edit', editedArgs: {}, editedName: 7 },
      'editedName must be a string',
    ],
    [
      'respond without message',
      { actionName: 'deploy', decision: 'respond' },
      'message must be a string',
    ],
    ['missing actionName', { decision: 'approve' }, 'actionName'],
    [
      'unknown field',
      { actionName: 'deploy', decision: 'approve', why: 1 },
      'property why should not exist',
    ],
  ])('refuses a decision with %s: 400', async (_label, body, expected) => {
    const { body: interrupt } = await open(twoActions());
    const res = await http()
      .post(`/api/interrupts/${interrupt.id}/decisions`)
      .set('cookie', owner.cookie)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(expected);
    expect(
      (await http().get(`/api/interrupts/${interrupt.id}`).set('x-api-key', key)).body.decisions,
    ).toEqual([]);
  });

  it.each([
    [
      'an action the interrupt does not have',
      { actionName: 'launch', decision: 'approve' },
      "actionName must name one of this interrupt's action requests.",
    ],
    [
      'a decision the action does not allow',
      { actionName: 'notify', decision: 'reject' },
      'decision must be one of the decisions action notify allows: approve, respond.',
    ],
  ])(
    'refuses a well-formed decision that does not fit the interrupt (%s): 409',
    async (_label, body, message) => {
      const { body: interrupt } = await open(twoActions());
      const res = await http()
        .post(`/api/interrupts/${interrupt.id}/decisions`)
        .set('cookie', owner.cookie)
        .send(body);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'CONFLICT', message });
      expect(
        (await http().get(`/api/interrupts/${interrupt.id}`).set('x-api-key', key)).body.decisions,
      ).toEqual([]);
    },
  );

  it('an edit can rename the action: editedName is stored and read back beside editedArgs', async () => {
    const { body: interrupt } = await open(twoActions());
    const renamed = await http()
      .post(`/api/interrupts/${interrupt.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({
        actionName: 'deploy',
        decision: 'edit',
        editedArgs: { service: 'api', version: '1.4.1' },
        editedName: 'rollback',
      });
    expect(renamed.status).toBe(201);
    expect(renamed.body.decisions[0]).toMatchObject({
      actionName: 'deploy',
      decision: 'edit',
      editedArgs: { service: 'api', version: '1.4.1' },
      editedName: 'rollback',
    });
    const approved = await http()
      .post(`/api/interrupts/${interrupt.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'notify', decision: 'approve' });
    const read = await http().get(`/api/interrupts/${interrupt.id}`).set('x-api-key', key);
    expect(approved.status).toBe(201);
    expect(
      read.body.decisions.map((d: { actionName: string; editedName: string | null }) => [
        d.actionName,
        d.editedName,
      ]),
    ).toEqual([
      ['deploy', 'rollback'],
      ['notify', null],
    ]);
  });

  it('a second decision on the same action answers 409', async () => {
    const { body: interrupt } = await open(twoActions());
    const decide = () =>
      http()
        .post(`/api/interrupts/${interrupt.id}/decisions`)
        .set('cookie', owner.cookie)
        .send({ actionName: 'deploy', decision: 'reject', message: 'Not on a Friday.' });
    expect((await decide()).status).toBe(201);
    const again = await decide();
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'CONFLICT',
      message: 'Action deploy of this interrupt has already been decided.',
    });
  });

  it('20 concurrent decisions on one action by several members: exactly one 201, the rest 409', async () => {
    const roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const deciders = [owner.cookie, manager.cookie];
    for (let i = 0; i < 3; i++)
      deciders.push(
        (await joinOrganisation(t.app.getHttpServer(), owner.cookie, roles.developer, `Dev ${i}`))
          .cookie,
      );
    const { body: interrupt } = await open(twoActions());
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http()
          .post(`/api/interrupts/${interrupt.id}/decisions`)
          .set('cookie', deciders[i % deciders.length])
          .send({ actionName: 'deploy', decision: i % 2 === 0 ? 'approve' : 'reject' }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    const read = await http().get(`/api/interrupts/${interrupt.id}`).set('x-api-key', key);
    expect(read.body.decisions).toHaveLength(1);
    const decided = (await audit(interrupt.id)).filter((e) => e.action === 'interrupt.decided');
    expect(decided).toHaveLength(1);
  });

  it('assigns to a member or a team of the organisation, with audit entries', async () => {
    const { body: interrupt } = await open(twoActions('Rotate secrets'));
    const toMember = await http()
      .post(`/api/interrupts/${interrupt.id}/assign`)
      .set('cookie', owner.cookie)
      .send({ memberId: manager.memberId });
    expect(toMember.status).toBe(200);
    expect(toMember.body.assignee).toEqual({
      type: 'member',
      id: manager.memberId,
      name: 'Mary Manager',
    });
    // The same assignee again changes nothing and writes nothing.
    expect(
      (
        await http()
          .post(`/api/interrupts/${interrupt.id}/assign`)
          .set('cookie', owner.cookie)
          .send({ memberId: manager.memberId })
      ).status,
    ).toBe(200);

    const team = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Platform' });
    expect(team.status).toBe(201);
    const toTeam = await http()
      .post(`/api/interrupts/${interrupt.id}/assign`)
      .set('cookie', manager.cookie)
      .send({ teamId: team.body.id });
    expect(toTeam.status).toBe(200);
    expect(toTeam.body.assignee).toEqual({ type: 'team', id: team.body.id, name: 'Platform' });

    const entries = (await audit(interrupt.id)).filter((e) => e.action === 'interrupt.assigned');
    expect(entries.map((e) => e.summary)).toEqual([
      'Interrupt Rotate secrets assigned to Mary Manager by Ada Lovelace',
      'Interrupt Rotate secrets assigned to team Platform by Mary Manager',
    ]);
    expect(entries[1].metadata).toMatchObject({
      assigneeType: 'team',
      assigneeId: team.body.id,
      previousAssigneeType: 'member',
    });

    // Someone of another organisation, or nobody: 404. Both, or neither: 400.
    const assign = (body: Record<string, unknown>) =>
      http().post(`/api/interrupts/${interrupt.id}/assign`).set('cookie', owner.cookie).send(body);
    expect((await assign({ memberId: other.memberId })).status).toBe(404);
    expect((await assign({ memberId: NIL })).status).toBe(404);
    expect((await assign({ teamId: NIL })).status).toBe(404);
    const both = await assign({ memberId: manager.memberId, teamId: team.body.id });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('teamId cannot be given together with memberId');
    const neither = await assign({});
    expect(neither.status).toBe(400);
    expect(neither.body.message).toContain('memberId must be a UUID');
  });

  it('unassigns with memberId: null, from a member or a team, audited; unassigned already changes nothing', async () => {
    const server = t.app.getHttpServer();
    const { body: interrupt } = await open({
      title: 'Renew certs',
      actionRequests: [{ name: 'renew' }],
    });
    const assign = (body: Record<string, unknown>, cookie = owner.cookie) =>
      http().post(`/api/interrupts/${interrupt.id}/assign`).set('cookie', cookie).send(body);
    expect((await assign({ memberId: manager.memberId })).status).toBe(200);

    const cleared = await assign({ memberId: null }, manager.cookie);
    expect(cleared.status).toBe(200);
    expect(cleared.body.assignee).toBeNull();
    const read = await http()
      .get(`/api/interrupts/${interrupt.id}`)
      .set('x-api-key', key)
      .expect(200);
    expect(read.body.assignee).toBeNull();
    // Unassigned already: 200, nothing written.
    expect((await assign({ memberId: null })).status).toBe(200);

    const team = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Security' })
      .expect(201);
    expect((await assign({ teamId: team.body.id })).status).toBe(200);
    expect((await assign({ memberId: null })).body.assignee).toBeNull();
    const unassigned = (await audit(interrupt.id)).filter(
      (e) => e.action === 'interrupt.unassigned',
    );
    expect(unassigned).toEqual([
      expect.objectContaining({
        actor_id: manager.memberId,
        target_type: 'interrupt',
        target_name: 'Renew certs',
        summary: 'Interrupt Renew certs unassigned from Mary Manager by Mary Manager',
        metadata: {
          previousAssigneeType: 'member',
          previousAssigneeId: manager.memberId,
          previousAssigneeName: 'Mary Manager',
        },
      }),
      expect.objectContaining({
        actor_id: owner.memberId,
        summary: 'Interrupt Renew certs unassigned from team Security by Ada Lovelace',
        metadata: {
          previousAssigneeType: 'team',
          previousAssigneeId: team.body.id,
          previousAssigneeName: 'Security',
        },
      }),
    ]);
    // The inbox's unassigned filter sees it again.
    const inbox = await http()
      .get('/api/interrupts')
      .query({ assignee: 'unassigned' })
      .set('x-api-key', key)
      .expect(200);
    expect(inbox.body.interrupts.map((i: { id: string }) => i.id)).toContain(interrupt.id);

    // null with a team is still "both"; teamId: null is not a way to unassign; an answered one cannot be unassigned.
    expect((await assign({ memberId: null, teamId: team.body.id })).body.message).toContain(
      'teamId cannot be given together with memberId',
    );
    expect((await assign({ teamId: null })).status).toBe(400);
    expect((await assign({ teamId: team.body.id })).status).toBe(200);
    await http()
      .post(`/api/interrupts/${interrupt.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'renew', decision: 'approve' })
      .expect(201);
    const late = await assign({ memberId: null });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This interrupt is already answered.');
    expect(
      (await audit(interrupt.id)).filter((e) => e.action === 'interrupt.unassigned'),
    ).toHaveLength(2);
    // A member without interrupt.assign cannot unassign.
    const reader = await memberWithPermissions(
      server,
      owner.cookie,
      ['interrupt.read'],
      'Rita Reader',
    );
    const { body: another } = await open({ title: 'Another', actionRequests: [{ name: 'x' }] });
    const refused = await http()
      .post(`/api/interrupts/${another.id}/assign`)
      .set('cookie', reader.cookie)
      .send({ memberId: null });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing permission: interrupt.assign.');
  });

  it('escalates with a reason and a rising level; an answered interrupt can no longer be escalated or assigned', async () => {
    const { body: interrupt } = await open({
      title: 'Delete bucket',
      actionRequests: [{ name: 'delete' }],
    });
    const first = await http()
      .post(`/api/interrupts/${interrupt.id}/escalate`)
      .set('cookie', manager.cookie)
      .send({ reason: 'No answer in 1 h' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      escalationLevel: 1,
      escalationReason: 'No answer in 1 h',
      escalatedAt: expect.stringMatching(/Z$/),
    });
    const second = await http()
      .post(`/api/interrupts/${interrupt.id}/escalate`)
      .set('cookie', owner.cookie);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ escalationLevel: 2, escalationReason: null });
    expect((await audit(interrupt.id)).filter((e) => e.action === 'interrupt.escalated')).toEqual([
      expect.objectContaining({
        summary: 'Interrupt Delete bucket escalated to level 1 by Mary Manager',
        metadata: { level: 1, reason: 'No answer in 1 h' },
      }),
      expect.objectContaining({
        summary: 'Interrupt Delete bucket escalated to level 2 by Ada Lovelace',
        metadata: { level: 2, reason: null },
      }),
    ]);
    expect(
      (
        await http()
          .post(`/api/interrupts/${interrupt.id}/escalate`)
          .set('cookie', owner.cookie)
          .send({ reason: '' })
      ).status,
    ).toBe(400);

    await http()
      .post(`/api/interrupts/${interrupt.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'delete', decision: 'approve' });
    const late = await http()
      .post(`/api/interrupts/${interrupt.id}/escalate`)
      .set('cookie', owner.cookie)
      .send({});
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This interrupt is already answered.');
    expect(
      (
        await http()
          .post(`/api/interrupts/${interrupt.id}/assign`)
          .set('cookie', owner.cookie)
          .send({ memberId: owner.memberId })
      ).status,
    ).toBe(409);
  });

  it('another organisation’s interrupt answers 404 to its keys and members; a key on a human-only route gets 403', async () => {
    const { body: interrupt } = await open(twoActions());
    expect(
      (await http().get(`/api/interrupts/${interrupt.id}`).set('x-api-key', otherKey)).status,
    ).toBe(404);
    expect((await http().get('/api/interrupts/not-a-uuid').set('x-api-key', key)).status).toBe(404);
    // The id is read before the query: a malformed id with a refused query is still a 404.
    const both = await http()
      .get('/api/interrupts/not-a-uuid?waitSeconds=99')
      .set('x-api-key', key);
    expect({ status: both.status, code: both.body.code }).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    for (const [path, body] of [
      ['decisions', { actionName: 'deploy', decision: 'approve' }],
      ['assign', { memberId: other.memberId }],
      ['escalate', {}],
    ] as const) {
      const foreign = await http()
        .post(`/api/interrupts/${interrupt.id}/${path}`)
        .set('cookie', other.cookie)
        .send(body);
      expect({ path, status: foreign.status, code: foreign.body.code }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
      const keyed = await http()
        .post(`/api/interrupts/${interrupt.id}/${path}`)
        .set('x-api-key', key)
        .send(body);
      expect({ path, status: keyed.status, body: keyed.body }).toMatchObject({
        status: 403,
        body: { code: 'HUMANS_ONLY', message: 'This endpoint is reserved for humans.' },
      });
    }
    expect(
      (await http().get(`/api/interrupts/${interrupt.id}`).set('x-api-key', key)).body.decisions,
    ).toEqual([]);
  });

  it('a member without interrupt.decide gets 403 naming the permission', async () => {
    const role = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Watcher', permissions: ['interrupt.read'] });
    expect(role.status).toBe(201);
    const watcher = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      role.body.id,
      'Wanda Watcher',
    );
    const { body: interrupt } = await open(twoActions());
    const res = await http()
      .post(`/api/interrupts/${interrupt.id}/decisions`)
      .set('cookie', watcher.cookie)
      .send({ actionName: 'deploy', decision: 'approve' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'MISSING_PERMISSION',
      message: 'Missing permission: interrupt.decide.',
    });
  });

  describe('openedBy: the key that opened it, named as it was then (issue 31 §1)', () => {
    it('the record and the listing name the key; a rename later does not rewrite them', async () => {
      const server = t.app.getHttpServer();
      const o = await signUpOwner(server, { organisationName: 'Opened By Ltd' });
      const k = await createApiKey(server, o.cookie, { name: 'billing-agent' });
      const opened = await open({ title: 'Refund', actionRequests: [{ name: 'refund' }] }, k.key);
      expect(opened.status).toBe(201);
      const by = { type: 'api_key', id: k.id, name: 'billing-agent' };
      expect(opened.body.openedBy).toEqual(by);
      const renamed = await http()
        .patch(`/api/api-keys/${k.id}`)
        .set('cookie', o.cookie)
        .send({ name: 'billing-agent-v2' });
      expect(renamed.status).toBe(200);
      const later = await open({ title: 'Refund 2', actionRequests: [{ name: 'refund' }] }, k.key);
      // The kept record (listing) and the rendered one (detail) agree.
      const listed = await http().get('/api/interrupts').set('cookie', o.cookie);
      expect(
        listed.body.interrupts.map((i: { title: string; openedBy: unknown }) => [
          i.title,
          i.openedBy,
        ]),
      ).toEqual([
        ['Refund 2', { ...by, name: 'billing-agent-v2' }],
        ['Refund', by],
      ]);
      const detail = await http().get(`/api/interrupts/${opened.body.id}`).set('cookie', o.cookie);
      expect(detail.body.openedBy).toEqual(by);
      // A record kept before the field existed is rendered again with it.
      await t.app
        .get(DataSource)
        .query(`UPDATE interrupts SET record_version = 4 WHERE organisation_id = $1 AND id = $2`, [
          o.organisationId,
          later.body.id,
        ]);
      const again = await http().get('/api/interrupts').set('cookie', o.cookie);
      expect(again.body.interrupts[0].openedBy).toEqual({ ...by, name: 'billing-agent-v2' });
    });

    it('the migration names the keys of existing interrupts from their interrupt.created entry', async () => {
      const db = t.app.get(DataSource);
      const server = t.app.getHttpServer();
      const o = await signUpOwner(server, { organisationName: 'Backfill Ltd' });
      const k = await createApiKey(server, o.cookie, { name: 'first-name' });
      const opened = await open({ title: 'Old one', actionRequests: [{ name: 'go' }] }, k.key);
      // Renamed since: the entry recorded the name as it was.
      await http().patch(`/api/api-keys/${k.id}`).set('cookie', o.cookie).send({ name: 'renamed' });
      const migration = new InterruptOpenedByName1795774000000();
      const runner = db.createQueryRunner();
      try {
        await migration.down(runner);
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      await db.query(`UPDATE interrupts SET record_json = NULL WHERE organisation_id = $1`, [
        o.organisationId,
      ]);
      const read = await http().get(`/api/interrupts/${opened.body.id}`).set('cookie', o.cookie);
      expect(read.body.openedBy).toEqual({ type: 'api_key', id: k.id, name: 'first-name' });
    });
  });

  describe('listing', () => {
    let fresh: { key: string; cookie: string };

    beforeAll(async () => {
      const server = t.app.getHttpServer();
      const o = await signUpOwner(server, { organisationName: 'Listing Ltd' });
      fresh = { key: (await createApiKey(server, o.cookie)).key, cookie: o.cookie };
      for (let i = 0; i < 7; i++) {
        const res = await open(
          {
            title: `Item ${i}`,
            actionRequests: [{ name: 'go' }],
            externalId: i % 2 === 0 ? 'even' : undefined,
          },
          fresh.key,
        );
        expect(res.status).toBe(201);
      }
      const { body } = await http().get('/api/interrupts?limit=1').set('x-api-key', fresh.key);
      await http()
        .post(`/api/interrupts/${body.interrupts[0].id}/decisions`)
        .set('cookie', o.cookie)
        .send({ actionName: 'go', decision: 'approve' });
    });

    const list = (query: string) =>
      http().get(`/api/interrupts${query}`).set('x-api-key', fresh.key);

    async function walk(query: string, limit: number): Promise<string[]> {
      const titles: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page++) {
        const sep = query === '' ? '?' : '&';
        const res = await list(
          `${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`.replace(
            /^&/,
            '?',
          ),
        );
        expect(res.status).toBe(200);
        expect(res.body.interrupts.length).toBeLessThanOrEqual(limit);
        titles.push(...res.body.interrupts.map((i: { title: string }) => i.title));
        cursor = res.body.nextCursor;
        if (cursor === null) return titles;
      }
      throw new Error('the walk did not end');
    }

    it('lists newest first, 50 by default, with decisions, and nextCursor null at the end', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['interrupts', 'nextCursor']);
      expect(res.body.interrupts.map((i: { title: string }) => i.title)).toEqual([
        'Item 6',
        'Item 5',
        'Item 4',
        'Item 3',
        'Item 2',
        'Item 1',
        'Item 0',
      ]);
      expect(res.body.interrupts[0].decisions).toHaveLength(1);
      expect(res.body.nextCursor).toBeNull();
    });

    it('walks pages with opaque cursors, alone and with filters', async () => {
      expect(await walk('', 2)).toEqual([
        'Item 6',
        'Item 5',
        'Item 4',
        'Item 3',
        'Item 2',
        'Item 1',
        'Item 0',
      ]);
      expect(await walk('?status=open', 2)).toEqual([
        'Item 5',
        'Item 4',
        'Item 3',
        'Item 2',
        'Item 1',
        'Item 0',
      ]);
      expect(await walk('?status=answered', 2)).toEqual(['Item 6']);
      expect(await walk('?externalId=even', 3)).toEqual(['Item 6', 'Item 4', 'Item 2', 'Item 0']);
      expect(await walk('?externalId=even&status=open', 1)).toEqual(['Item 4', 'Item 2', 'Item 0']);
    });

    it('new interrupts do not enter a walk already under way', async () => {
      const first = await list('?limit=3');
      await open({ title: 'Late', actionRequests: [{ name: 'go' }] }, fresh.key);
      const second = await list(`?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(second.body.interrupts.map((i: { title: string }) => i.title)).toEqual([
        'Item 3',
        'Item 2',
        'Item 1',
      ]);
    });

    it('refuses tampered cursors, cursors of other filters, and bad parameters with 400 naming them', async () => {
      const { body } = await list('?limit=2&status=open');
      const cursor: string = body.nextCursor;
      const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
      for (const query of [
        `?limit=2&status=open&cursor=${encodeURIComponent(flipped)}`,
        `?limit=2&status=answered&cursor=${encodeURIComponent(cursor)}`,
        `?limit=2&cursor=${encodeURIComponent(cursor)}`,
        '?cursor=garbage',
      ]) {
        const res = await list(query);
        expect({ query, status: res.status, code: res.body.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
        expect(res.body.message).toContain('cursor');
      }
      // Another organisation's key cannot use it either.
      const foreign = await http()
        .get(`/api/interrupts?limit=2&status=open&cursor=${encodeURIComponent(cursor)}`)
        .set('x-api-key', key);
      expect(foreign.status).toBe(400);

      for (const [query, named] of [
        ['?limit=0', 'limit'],
        ['?limit=201', 'limit'],
        ['?limit=abc', 'limit'],
        ['?limit=1.5', 'limit'],
        ['?status=closed', 'status'],
        ['?colour=red', 'colour'],
      ]) {
        const res = await list(query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(res.body.message).toContain(named);
      }
      expect((await list('?limit=200')).status).toBe(200);
      expect((await list('?limit=1')).body.interrupts).toHaveLength(1);
    });
  });
});
