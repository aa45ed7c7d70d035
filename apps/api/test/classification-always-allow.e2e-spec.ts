import request from 'supertest';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 29 §2 / SPEC §8d: "Always allow this" — a narrow enforce rule from an interrupt's action
// (its key, its name, argument conditions that hold for it), expiring, paused by a rejection.
describe('Always allow this', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let keyId: string;
  let otherKey: string;
  const http = () => request(t.app.getHttpServer());
  const open = async (actionRequests: Record<string, unknown>[], k = key, title = 'Refund') => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', k)
      .send({ title, actionRequests });
    expect(res.status).toBe(201);
    return res.body as { id: string; status: string; decisions: { decidedBy: unknown }[] };
  };
  const allow = (body: Record<string, unknown>, cookie = owner.cookie) =>
    http().post('/api/classification/always-allow').set('cookie', cookie).send(body);
  const ruleCount = async () =>
    ((await http().get('/api/classification/rules').set('cookie', owner.cookie)).body.rules as [])
      .length;
  const audit = async (action: string) => {
    const res = await http().get(`/api/audit-log?action=${action}`).set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    return res.body.entries as {
      actorType: string;
      actorName: string;
      targetId: string;
      targetName: string;
      summary: string;
      metadata: Record<string, unknown>;
    }[];
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    ({ key, id: keyId } = await createApiKey(t.app.getHttpServer(), owner.cookie, {
      name: 'billing-agent',
    }));
    ({ key: otherKey } = await createApiKey(t.app.getHttpServer(), owner.cookie, {
      name: 'other-agent',
    }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('by default allows exactly these argument values from this key, for 30 days, audited with its origin', async () => {
    const first = await open([{ name: 'refund', args: { amount: 40, currency: 'EUR' } }]);
    expect(first.status).toBe('open');
    const before = Date.now();
    const res = await allow({ interruptId: first.id, actionName: 'refund' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Always allow refund',
      mode: 'enforce',
      priority: 1000,
      match: {
        actions: ['refund'],
        keyIds: [keyId],
        args: [
          { path: 'amount', op: 'eq', value: 40 },
          { path: 'currency', op: 'eq', value: 'EUR' },
        ],
      },
      outcome: { type: 'approve' },
      expiresAt: expect.stringMatching(/Z$/),
      origin: 'always_allow',
      originInterruptId: first.id,
      paused: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const days = (Date.parse(res.body.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    const [entry] = await audit('classification.rule_created');
    expect(entry).toMatchObject({
      actorType: 'member',
      actorName: 'Ada Lovelace',
      targetId: res.body.id,
      summary:
        'Classification rule Always allow refund created (enforce) by Ada Lovelace with Always allow this',
      metadata: {
        rule: {
          name: 'Always allow refund',
          mode: 'enforce',
          priority: 1000,
          match: res.body.match,
          outcome: { type: 'approve' },
          expiresAt: res.body.expiresAt,
        },
        origin: { type: 'always_allow', interruptId: first.id, actionName: 'refund' },
      },
    });
    // The next identical request is answered at once, by argus with this rule.
    const same = await open([{ name: 'refund', args: { currency: 'EUR', amount: 40 } }]);
    expect(same.status).toBe('answered');
    expect(same.decisions[0].decidedBy).toEqual({
      type: 'argus',
      ruleId: res.body.id,
      name: 'argus',
    });
    // Other values, another key, another action: a person decides.
    expect((await open([{ name: 'refund', args: { amount: 41, currency: 'EUR' } }])).status).toBe(
      'open',
    );
    expect(
      (await open([{ name: 'refund', args: { amount: 40, currency: 'EUR' } }], otherKey)).status,
    ).toBe('open');
    expect(
      (await open([{ name: 'refund_all', args: { amount: 40, currency: 'EUR' } }])).status,
    ).toBe('open');
  });

  it('takes a range the person chooses, which must hold for this very action', async () => {
    const first = await open([{ name: 'credit', args: { amount: 40, note: 'goodwill' } }]);
    const wrong = await allow({
      interruptId: first.id,
      actionName: 'credit',
      args: [{ path: 'amount', op: 'lte', value: 10 }],
    });
    expect({ status: wrong.status, message: wrong.body.message }).toEqual({
      status: 400,
      message:
        "args[0]: does not hold for this action's arguments, so the rule would not allow this request",
    });
    const res = await allow({
      interruptId: first.id,
      actionName: 'credit',
      args: [{ path: 'amount', op: 'lte', value: 100 }],
      expiresInDays: 7,
    });
    expect(res.status).toBe(201);
    expect(res.body.match.args).toEqual([{ path: 'amount', op: 'lte', value: 100 }]);
    expect((Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000).toBeGreaterThan(6.99);
    expect((await open([{ name: 'credit', args: { amount: 99, note: 'other' } }])).status).toBe(
      'answered',
    );
    expect((await open([{ name: 'credit', args: { amount: 101 } }])).status).toBe('open');
  });

  it('refuses what it cannot allow with exact texts, and writes nothing', async () => {
    const first = await open([
      { name: 'wire', args: { amount: 1 }, allowedDecisions: ['reject', 'respond'] },
      { name: 'many', args: Object.fromEntries([...Array(21).keys()].map((i) => [`a${i}`, i])) },
      { name: 'odd', args: { 'first name': 'x' } },
    ]);
    const rules = await ruleCount();
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { interruptId: first.id, actionName: 'nope' },
        409,
        "actionName must name one of this interrupt's action requests.",
      ],
      [
        { interruptId: first.id, actionName: 'wire' },
        409,
        'Action wire does not allow approve, so no rule can approve it.',
      ],
      [
        { interruptId: first.id, actionName: 'many' },
        400,
        'args: this action has 21 arguments, more than the 20 conditions a rule holds; list the conditions to keep',
      ],
      [
        { interruptId: first.id, actionName: 'odd' },
        400,
        'args: argument "first name" cannot be named in a rule; list the conditions to keep',
      ],
      [
        { interruptId: first.id, actionName: 'many', args: [{ path: 'a1', op: 'near', value: 1 }] },
        400,
        'args[0].op: must be one of eq, ne, in, lt, lte, gt, gte, matches',
      ],
      [
        { interruptId: first.id, actionName: 'many', args: [], expiresInDays: 0 },
        400,
        'expiresInDays must not be less than 1',
      ],
      [
        { interruptId: '00000000-0000-4000-8000-000000000000', actionName: 'many' },
        404,
        'Not found.',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await allow(body);
      expect({ status: res.status, message: res.body.message }).toEqual({ status, message });
    }
    expect(await ruleCount()).toBe(rules);
    // An empty list of conditions allows any arguments (still this key and this action).
    const any = await allow({ interruptId: first.id, actionName: 'odd', args: [] });
    expect(any.status).toBe(201);
    expect(any.body.match).toEqual({ actions: ['odd'], keyIds: [keyId] });
  });

  it('is for members with classification.manage; another organisation answers 404', async () => {
    const first = await open([{ name: 'ping', args: {} }]);
    const asKey = await http()
      .post('/api/classification/always-allow')
      .set('x-api-key', key)
      .send({ interruptId: first.id, actionName: 'ping' });
    expect({ status: asKey.status, message: asKey.body.message }).toEqual({
      status: 403,
      message: 'This endpoint is reserved for humans.',
    });
    const roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const manager = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.manager,
      'Mary Manager',
    );
    const refused = await allow({ interruptId: first.id, actionName: 'ping' }, manager.cookie);
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 403,
      message: 'Missing permission: classification.manage.',
    });
    const stranger = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Engines',
    });
    const foreign = await allow({ interruptId: first.id, actionName: 'ping' }, stranger.cookie);
    expect(foreign.status).toBe(404);
  });

  it("a person's rejection of an action it would approve pauses it, audited; a mode change resumes it", async () => {
    // Opened before the rule exists: it waits for a person.
    const waiting = await open([{ name: 'deploy', args: { env: 'staging' } }]);
    const unrelated = await open([{ name: 'deploy', args: { env: 'production' } }]);
    const first = await open([{ name: 'deploy', args: { env: 'staging' } }]);
    const rule = (await allow({ interruptId: first.id, actionName: 'deploy' })).body as {
      id: string;
    };
    const decide = (id: string, decision: string) =>
      http()
        .post(`/api/interrupts/${id}/decisions`)
        .set('cookie', owner.cookie)
        .send({ actionName: 'deploy', decision });
    // Rejecting an action it does not match leaves it enforced; so does approving one it matches.
    expect((await decide(unrelated.id, 'reject')).status).toBe(201);
    expect((await decide(first.id, 'approve')).status).toBe(201);
    let read = await http().get(`/api/classification/rules/${rule.id}`).set('cookie', owner.cookie);
    expect(read.body.mode).toBe('enforce');
    expect((await decide(waiting.id, 'reject')).status).toBe(201);
    read = await http().get(`/api/classification/rules/${rule.id}`).set('cookie', owner.cookie);
    expect(read.body.mode).toBe('off');
    expect(read.body.paused).toEqual({
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      interruptId: waiting.id,
      actionName: 'deploy',
      byName: 'Ada Lovelace',
    });
    const [entry] = await audit('classification.rule_paused');
    expect(entry).toMatchObject({
      actorType: 'member',
      actorName: 'Ada Lovelace',
      targetId: rule.id,
      summary:
        'Classification rule Always allow deploy paused: Ada Lovelace rejected action deploy it would approve',
      metadata: { interruptId: waiting.id, actionName: 'deploy', from: 'enforce', to: 'off' },
    });
    // Paused: the next identical request goes to a person.
    expect((await open([{ name: 'deploy', args: { env: 'staging' } }])).status).toBe('open');
    const resumed = await http()
      .patch(`/api/classification/rules/${rule.id}`)
      .set('cookie', owner.cookie)
      .send({ mode: 'enforce' });
    expect(resumed.status).toBe(200);
    expect(resumed.body.paused).toBeNull();
    expect((await open([{ name: 'deploy', args: { env: 'staging' } }])).status).toBe('answered');
  });
});
