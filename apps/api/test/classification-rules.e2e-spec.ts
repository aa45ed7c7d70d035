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
import { startTestApp, TestApp } from './support/test-app';

// SPEC §8d: classification rules — human-only, classification.read / classification.manage,
// validated with exact texts, audited by the member, another organisation's rule answers 404.
describe('classification rules', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let manager: { cookie: string; memberId: string };
  const http = () => request(t.app.getHttpServer());
  const refund = {
    name: 'Small refunds',
    mode: 'shadow',
    priority: 10,
    match: { actions: ['refund*'], args: [{ path: 'amount', op: 'lte', value: 100 }] },
    outcome: { type: 'approve' },
  };
  const create = (body: unknown, cookie = owner.cookie) =>
    http()
      .post('/api/classification/rules')
      .set('cookie', cookie)
      .send(body as object);
  const auditOf = async (action: string) => {
    const res = await http().get(`/api/audit-log?action=${action}`).set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    return res.body.entries as {
      action: string;
      category: string;
      actorType: string;
      actorId: string;
      actorName: string;
      targetType: string;
      targetId: string;
      targetName: string;
      summary: string;
      metadata: Record<string, unknown>;
    }[];
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'agent' }));
    const roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    manager = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.manager,
      'Mary Manager',
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a rule, audited by the member with the rule as it was saved', async () => {
    const res = await create(refund);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Small refunds',
      mode: 'shadow',
      priority: 10,
      match: { actions: ['refund*'], args: [{ path: 'amount', op: 'lte', value: 100 }] },
      outcome: { type: 'approve' },
      expiresAt: null,
      origin: 'member',
      originInterruptId: null,
      paused: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const [entry] = await auditOf('classification.rule_created');
    expect(entry).toMatchObject({
      category: 'classification',
      actorType: 'member',
      actorId: owner.memberId,
      actorName: 'Ada Lovelace',
      targetType: 'classification',
      targetId: res.body.id,
      targetName: 'Small refunds',
      summary: 'Classification rule Small refunds created (shadow) by Ada Lovelace',
      metadata: {
        rule: {
          name: 'Small refunds',
          mode: 'shadow',
          priority: 10,
          match: refund.match,
          outcome: { type: 'approve' },
          expiresAt: null,
        },
      },
    });
    const read = await http()
      .get(`/api/classification/rules/${res.body.id}`)
      .set('cookie', manager.cookie);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('lists rules in evaluation order: priority, then creation', async () => {
    const late = await create({ ...refund, name: 'Late but first', priority: 1 });
    const list = await http().get('/api/classification/rules').set('cookie', manager.cookie);
    expect(list.status).toBe(200);
    expect(list.body.rules[0].id).toBe(late.body.id);
    const priorities = list.body.rules.map((r: { priority: number }) => r.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
  });

  it('answers 400 with the offending path for every malformed part, and writes nothing', async () => {
    const before = (await auditOf('classification.rule_created')).length;
    const cases: [unknown, string][] = [
      [
        { ...refund, name: undefined },
        'name must not be blank; name must be longer than or equal to 1 characters; name must be a string',
      ],
      [{ ...refund, mode: 'always' }, 'mode must be one of off, shadow, enforce'],
      [
        {
          ...refund,
          match: { ...refund.match, args: [{ path: 'amount', op: 'below', value: 1 }] },
        },
        'match.args[0].op: must be one of eq, ne, in, lt, lte, gt, gte, matches',
      ],
      [
        { ...refund, match: { args: [{ path: 'amount', op: 'lt', value: '100' }] } },
        'match.args[0].value: must be a number',
      ],
      [
        { ...refund, match: { args: [{ path: '../x', op: 'eq', value: 1 }] } },
        'match.args[0].path: must be a dotted path into the arguments, such as amount or customer.tier',
      ],
      [{ ...refund, match: { action: ['x'] } }, 'match.action: is not a known field'],
      [{ ...refund, match: { keyIds: ['not-a-uuid'] } }, 'match.keyIds[0]: must be a UUID'],
      [{ ...refund, match: { actions: [] } }, 'match.actions: must list at least one value'],
      [
        { ...refund, outcome: { type: 'reject' } },
        'outcome.message: is required with reject: the message the agent receives, 1 to 1000 characters',
      ],
      [
        { ...refund, outcome: { type: 'route', assignTo: {} } },
        'outcome.assignTo: must be {memberId} or {teamId}',
      ],
      [
        { ...refund, outcome: { type: 'maybe' } },
        'outcome.type: must be one of approve, reject, route, require_human, policy',
      ],
      [
        { ...refund, expiresAt: 'tomorrow' },
        'expiresAt must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect({ status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        message,
      });
    }
    const extra = await create({ ...refund, enabled: true });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('enabled');
    expect((await auditOf('classification.rule_created')).length).toBe(before);
  });

  it('a route to a member or team that is not the organisation’s answers 404', async () => {
    const res = await create({
      ...refund,
      outcome: { type: 'route', assignTo: { memberId: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(res.status).toBe(404);
    const ok = await create({
      ...refund,
      name: 'Route to Mary',
      outcome: { type: 'route', assignTo: { memberId: manager.memberId }, escalate: true },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.outcome).toEqual({
      type: 'route',
      assignTo: { memberId: manager.memberId },
      escalate: true,
    });
  });

  it('switching the mode is audited with the change; an update that changes nothing writes nothing', async () => {
    const rule = (await create({ ...refund, name: 'To enforce' })).body;
    const switched = await http()
      .patch(`/api/classification/rules/${rule.id}`)
      .set('cookie', owner.cookie)
      .send({ mode: 'enforce' });
    expect(switched.status).toBe(200);
    expect(switched.body.mode).toBe('enforce');
    const [entry] = await auditOf('classification.rule_updated');
    expect(entry).toMatchObject({
      targetId: rule.id,
      summary: 'Classification rule To enforce switched from shadow to enforce by Ada Lovelace',
      metadata: { changes: { mode: { from: 'shadow', to: 'enforce' } } },
    });
    const same = await http()
      .patch(`/api/classification/rules/${rule.id}`)
      .set('cookie', owner.cookie)
      .send({ mode: 'enforce' });
    expect(same.status).toBe(200);
    expect((await auditOf('classification.rule_updated')).length).toBe(1);
    const empty = await http()
      .patch(`/api/classification/rules/${rule.id}`)
      .set('cookie', owner.cookie)
      .send({});
    expect(empty.status).toBe(400);
    const bad = await http()
      .patch(`/api/classification/rules/${rule.id}`)
      .set('cookie', owner.cookie)
      .send({ outcome: { type: 'reject', message: ' ' } });
    expect(bad.body.message).toBe(
      'outcome.message: is required with reject: the message the agent receives, 1 to 1000 characters',
    );
  });

  it('deletes a rule, audited with what it was', async () => {
    const rule = (await create({ ...refund, name: 'Short-lived' })).body;
    const deleted = await http()
      .delete(`/api/classification/rules/${rule.id}`)
      .set('cookie', owner.cookie);
    expect(deleted.status).toBe(204);
    expect(
      (await http().get(`/api/classification/rules/${rule.id}`).set('cookie', owner.cookie)).status,
    ).toBe(404);
    const [entry] = await auditOf('classification.rule_deleted');
    expect(entry).toMatchObject({
      targetId: rule.id,
      targetName: 'Short-lived',
      summary: 'Classification rule Short-lived deleted by Ada Lovelace',
    });
    expect((entry.metadata as { rule: { name: string } }).rule.name).toBe('Short-lived');
  });

  it('is for humans: a key gets the exact 403 on every route, with or without a session', async () => {
    const id = (await create({ ...refund, name: 'Humans only' })).body.id as string;
    const routes = [
      http().get('/api/classification/rules'),
      http().post('/api/classification/rules').send(refund),
      http().get(`/api/classification/rules/${id}`),
      http().patch(`/api/classification/rules/${id}`).send({ mode: 'off' }),
      http().delete(`/api/classification/rules/${id}`),
    ];
    for (const req of routes) {
      const res = await req.set('x-api-key', key);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 403,
        message: 'This endpoint is reserved for humans.',
      });
    }
    expect((await http().get('/api/classification/rules')).status).toBe(401);
  });

  it('needs classification.manage to change rules (Managers read); a custom role may hold it', async () => {
    const refused = await create({ ...refund, name: 'By a manager' }, manager.cookie);
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 403,
      message: 'Missing permission: classification.manage.',
    });
    const custom = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['classification.manage'],
      'Rita Rules',
    );
    expect((await create({ ...refund, name: 'By a custom role' }, custom.cookie)).status).toBe(201);
    const reader = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['interrupt.read'],
      'Nina None',
    );
    const list = await http().get('/api/classification/rules').set('cookie', reader.cookie);
    expect({ status: list.status, message: list.body.message }).toEqual({
      status: 403,
      message: 'Missing permission: classification.read.',
    });
  });

  it("another organisation's rule id answers 404 on every route, and its list is its own", async () => {
    const id = (await create({ ...refund, name: 'Mine' })).body.id as string;
    const stranger = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Engines',
    });
    for (const req of [
      http().get(`/api/classification/rules/${id}`),
      http().patch(`/api/classification/rules/${id}`).send({ mode: 'off' }),
      http().delete(`/api/classification/rules/${id}`),
    ]) {
      const res = await req.set('cookie', stranger.cookie);
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    const list = await http().get('/api/classification/rules').set('cookie', stranger.cookie);
    expect(list.body.rules).toEqual([]);
    expect(
      (await http().get(`/api/classification/rules/${id}`).set('cookie', owner.cookie)).body.mode,
    ).toBe('shadow');
  });
  it('holds at most 5,000 rules: the next create answers the 409, writes nothing, and the contract says so', async () => {
    const full = await signUpOwner(t.app.getHttpServer(), { name: 'Filled Owner' });
    const db = t.app.get(DataSource);
    await db.query(
      `INSERT INTO classification_rules (organisation_id, id, name, mode, priority, match, outcome)
       SELECT $1, gen_random_uuid(), 'rule ' || n, 'off', 100, '{}'::jsonb, '{"type":"approve"}'::jsonb
         FROM generate_series(1, 4999) AS n`,
      [full.organisationId],
    );
    expect((await create({ ...refund, name: 'The 5,000th' }, full.cookie)).status).toBe(201);
    const refused = await create({ ...refund, name: 'One too many' }, full.cookie);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: {
        statusCode: 409,
        error: 'Conflict',
        code: 'CONFLICT',
        message: 'This organisation has reached its limit of 5,000 classification rules.',
        requestId: expect.any(String),
      },
    });
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM classification_rules WHERE organisation_id = $1`,
      [full.organisationId],
    );
    expect(count).toBe(5000);
    const audit = await http()
      .get('/api/audit-log?action=classification.rule_created')
      .set('cookie', full.cookie);
    expect(audit.body.entries.map((e: { targetName: string }) => e.targetName)).toEqual([
      'The 5,000th',
    ]);
    const contract = await http().get('/api/openapi.json');
    const responses = contract.body.paths['/api/classification/rules'].post.responses;
    expect(responses['409'].description).toContain(
      'the organisation holds its limit of 5,000 classification rules',
    );
  });
});
