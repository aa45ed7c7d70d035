import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  organisationWithKey,
  type OrganisationWithKey,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 29 §1 / SPEC §8d: argus runs the organisation's rules inside POST /api/interrupts.
describe('argus in POST /api/interrupts', () => {
  let t: TestApp;
  let db: DataSource;
  const http = () => request(t.app.getHttpServer());

  type Org = OrganisationWithKey;
  const newOrg = (name: string) => organisationWithKey(t.app.getHttpServer(), name);
  const rule = async (org: Org, body: Record<string, unknown>) => {
    const res = await http()
      .post('/api/classification/rules')
      .set('cookie', org.owner.cookie)
      .send({ name: 'rule', mode: 'enforce', match: {}, outcome: { type: 'approve' }, ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const open = async (
    org: Org,
    actionRequests: Record<string, unknown>[],
    title = 'Refund order 42',
    key = org.key,
  ) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, actionRequests });
    expect(res.status).toBe(201);
    return res;
  };
  const entries = async (org: Org, interruptId: string) => {
    const res = await http()
      .get(`/api/audit-log?targetId=${interruptId}&limit=200`)
      .set('cookie', org.owner.cookie);
    expect(res.status).toBe(200);
    return (
      res.body.entries as {
        action: string;
        actorType: string;
        actorId?: string | null;
        actorName: string;
        metadata: unknown;
        category: string;
      }[]
    ).reverse();
  };

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
  });

  it('an enforce approve rule answers the interrupt in the create response, as a decision by argus, with its receipt', async () => {
    const org = await newOrg('Approvals');
    const ruleId = await rule(org, {
      name: 'Small refunds',
      match: {
        actions: ['refund'],
        keyIds: [org.keyId],
        args: [{ path: 'amount', op: 'lte', value: 100 }],
      },
    });
    const res = await open(org, [{ name: 'refund', args: { amount: 50 } }]);
    expect(res.body.status).toBe('answered');
    expect(res.body.answeredAt).not.toBeNull();
    expect(res.body.decisions).toEqual([
      {
        id: expect.any(String),
        actionName: 'refund',
        decision: 'approve',
        editedArgs: null,
        editedName: null,
        message: null,
        response: null,
        actionDigest: res.body.actionRequests[0].actionDigest,
        editedActionDigest: null,
        decidedBy: { type: 'argus', ruleId, name: 'argus' },
        decidedAt: expect.stringMatching(/Z$/),
      },
    ]);
    const read = await http().get(`/api/interrupts/${res.body.id}`).set('x-api-key', org.key);
    expect(read.text).toBe(res.text);
    const log = await entries(org, res.body.id);
    expect(log.map((e) => [e.action, e.actorType, e.actorName])).toEqual([
      ['interrupt.created', 'api_key', 'billing-agent'],
      ['classification.applied', 'argus', 'argus'],
      ['interrupt.decided', 'argus', 'argus'],
    ]);
    expect(log[1].category).toBe('classification');
    expect(log[1].actorId ?? null).toBeNull();
    expect(log[1].metadata).toEqual({
      actionName: 'refund',
      ruleIds: [ruleId],
      policyVersion: 1,
      mode: 'enforce',
      outcome: 'approve',
      enforced: true,
    });
    expect(log[2].metadata).toEqual({
      actionName: 'refund',
      decision: 'approve',
      becameAnswered: true,
    });

    // Above the limit, an unknown action, another key: a person decides; nothing matched, no receipt.
    for (const actions of [
      [{ name: 'refund', args: { amount: 500 } }],
      [{ name: 'refund', args: { amount: '50' } }],
      [{ name: 'deploy' }],
    ]) {
      const left = await open(org, actions);
      expect(left.body.status).toBe('open');
      expect(left.body.decisions).toEqual([]);
      expect((await entries(org, left.body.id)).map((e) => e.action)).toEqual([
        'interrupt.created',
      ]);
    }
  });

  it('reject carries the message; an action that does not allow the decision goes to a person, and the receipt says so', async () => {
    const org = await newOrg('Rejections');
    const ruleId = await rule(org, {
      match: { actions: ['drop_*'] },
      outcome: { type: 'reject', message: 'Never drop tables.' },
    });
    const rejected = await open(org, [{ name: 'drop_table', args: { table: 'users' } }]);
    expect(rejected.body.status).toBe('answered');
    expect(rejected.body.decisions[0]).toMatchObject({
      decision: 'reject',
      message: 'Never drop tables.',
      decidedBy: { type: 'argus', ruleId },
    });

    const approveOnly = await open(org, [
      { name: 'drop_index', allowedDecisions: ['approve', 'edit'] },
    ]);
    expect(approveOnly.body.status).toBe('open');
    expect(approveOnly.body.decisions).toEqual([]);
    const log = await entries(org, approveOnly.body.id);
    expect(log.map((e) => e.action)).toEqual(['interrupt.created', 'classification.applied']);
    expect(log[1].metadata).toEqual({
      actionName: 'drop_index',
      ruleIds: [ruleId],
      policyVersion: 1,
      mode: 'enforce',
      outcome: 'reject',
      enforced: false,
      skipped: 'decision_not_allowed',
    });
  });

  it('shadow rules are recorded and never applied; ordering: priority first, require_human stops later rules', async () => {
    const org = await newOrg('Ordering');
    const shadow = await rule(org, {
      name: 'shadow',
      mode: 'shadow',
      priority: 1,
      match: { actions: ['deploy'] },
      outcome: { type: 'reject', message: 'no' },
    });
    const human = await rule(org, {
      name: 'human',
      priority: 5,
      match: { actions: ['deploy'], titleWords: ['production'] },
      outcome: { type: 'require_human' },
    });
    const approve = await rule(org, {
      name: 'approve',
      priority: 10,
      match: { actions: ['deploy'] },
    });

    const staging = await open(org, [{ name: 'deploy' }], 'Deploy to staging');
    expect(staging.body.decisions[0].decidedBy).toEqual({
      type: 'argus',
      ruleId: approve,
      name: 'argus',
    });
    const stagingLog = await entries(org, staging.body.id);
    expect(
      stagingLog.map((e) => [e.action, (e.metadata as { ruleIds?: string[] }).ruleIds]),
    ).toEqual([
      ['interrupt.created', undefined],
      ['classification.shadowed', [shadow]],
      ['classification.applied', [approve]],
      ['interrupt.decided', undefined],
    ]);
    expect(stagingLog[1].metadata).toEqual({
      actionName: 'deploy',
      ruleIds: [shadow],
      policyVersion: 3,
      mode: 'shadow',
      outcome: 'reject',
      enforced: false,
    });

    const production = await open(org, [{ name: 'deploy' }], 'Deploy to Production');
    expect(production.body.status).toBe('open');
    const prodLog = await entries(org, production.body.id);
    expect(prodLog.map((e) => e.action)).toEqual([
      'interrupt.created',
      'classification.shadowed',
      'classification.applied',
    ]);
    expect(prodLog[2].metadata).toEqual({
      actionName: 'deploy',
      ruleIds: [human],
      policyVersion: 3,
      mode: 'enforce',
      outcome: 'require_human',
      enforced: true,
    });

    // A mode switch applies to the very next interrupt (the cache is dropped before the PATCH answers).
    await http()
      .patch(`/api/classification/rules/${approve}`)
      .set('cookie', org.owner.cookie)
      .send({ mode: 'off' });
    const after = await open(org, [{ name: 'deploy' }], 'Deploy to staging');
    expect(after.body.status).toBe('open');
    // The change raised the organisation's version: receipts from then on carry the new one.
    const afterLog = await entries(org, after.body.id);
    expect(afterLog.map((e) => [e.action, e.metadata])).toEqual([
      ['interrupt.created', expect.anything()],
      [
        'classification.shadowed',
        {
          actionName: 'deploy',
          ruleIds: [shadow],
          policyVersion: 4,
          mode: 'shadow',
          outcome: 'reject',
          enforced: false,
        },
      ],
    ]);
  });

  it('decides some actions and leaves the rest; a route assigns and escalates', async () => {
    const org = await newOrg('Routing');
    const roles = await builtInRoleIds(t.app.getHttpServer(), org.owner.cookie);
    const oncall = await joinOrganisation(
      t.app.getHttpServer(),
      org.owner.cookie,
      roles.manager,
      'Otto Oncall',
    );
    await rule(org, { priority: 1, match: { actions: ['notify'] } });
    await rule(org, {
      priority: 2,
      match: { args: [{ path: 'environment', op: 'eq', value: 'production' }] },
      outcome: { type: 'route', assignTo: { memberId: oncall.memberId }, escalate: true },
    });
    const res = await open(org, [
      { name: 'notify' },
      { name: 'migrate', args: { environment: 'production' } },
    ]);
    expect(res.body.status).toBe('open');
    expect(res.body.decisions.map((d: { actionName: string }) => d.actionName)).toEqual(['notify']);
    expect(res.body.assignee).toEqual({ type: 'member', id: oncall.memberId, name: 'Otto Oncall' });
    expect(res.body.escalationLevel).toBe(1);
    const decided = await http()
      .post(`/api/interrupts/${res.body.id}/decisions`)
      .set('cookie', oncall.cookie)
      .send({ actionName: 'migrate', decision: 'approve' });
    expect(decided.status).toBe(201);
    expect(decided.body.status).toBe('answered');
    expect(
      decided.body.decisions.map((d: { decidedBy: { type: string } }) => d.decidedBy.type),
    ).toEqual(['argus', 'member']);
  });

  it("another organisation's rules never apply", async () => {
    const a = await newOrg('Tenant A');
    const b = await newOrg('Tenant B');
    await rule(a, { match: {} });
    expect((await open(a, [{ name: 'anything' }])).body.status).toBe('answered');
    expect((await open(b, [{ name: 'anything' }])).body.status).toBe('open');
  });

  it('the circuit breaker: after 10 automatic rejections of one key, its next interrupt goes to a person, audited', async () => {
    const org = await newOrg('Breaker');
    await rule(org, { match: { actions: ['spam'] }, outcome: { type: 'reject', message: 'No.' } });
    for (let i = 0; i < 10; i++)
      expect((await open(org, [{ name: 'spam' }])).body.status).toBe('answered');
    const tripped = await open(org, [{ name: 'spam' }]);
    expect(tripped.body.status).toBe('open');
    const log = await entries(org, tripped.body.id);
    expect(log.map((e) => e.action)).toEqual([
      'interrupt.created',
      'classification.breaker_tripped',
      'classification.applied',
    ]);
    expect(log[1].metadata).toEqual({
      apiKeyId: org.keyId,
      rejections: 10,
      windowSeconds: 600,
      actionNames: ['spam'],
    });
    expect((log[2].metadata as { enforced: boolean; skipped: string }).skipped).toBe(
      'circuit_breaker',
    );
    // Another key of the organisation is not held back.
    const other = await createApiKey(t.app.getHttpServer(), org.owner.cookie, {
      name: 'other-agent',
    });
    expect((await open(org, [{ name: 'spam' }], 'Refund', other.key)).body.status).toBe('answered');
  });

  it('the dry run classifies a sample or the latest interrupts, with saved or draft rules, and writes nothing', async () => {
    const org = await newOrg('Dry run');
    const ruleId = await rule(org, {
      name: 'Small refunds',
      match: { actions: ['refund'], args: [{ path: 'amount', op: 'lte', value: 100 }] },
    });
    const shadowId = await rule(org, {
      name: 'Watch',
      mode: 'shadow',
      priority: 1,
      match: { actions: ['refund'] },
      outcome: { type: 'reject', message: 'x' },
    });
    const opened = await open(org, [
      { name: 'refund', args: { amount: 500 } },
      { name: 'refund_fee', args: { amount: 5 } },
    ]);
    const auditBefore = (
      await http().get('/api/audit-log?limit=200').set('cookie', org.owner.cookie)
    ).body.entries.length;

    const sample = await http()
      .post('/api/classification/dry-run')
      .set('cookie', org.owner.cookie)
      .send({
        sample: {
          title: 'Refund',
          keyId: org.keyId,
          actionRequests: [{ name: 'refund', args: { amount: 20 } }, { name: 'deploy' }],
        },
      });
    expect(sample.status).toBe(200);
    expect(sample.body).toEqual({
      results: [
        {
          interruptId: null,
          title: 'Refund',
          actions: [
            {
              actionName: 'refund',
              result: 'approve',
              ruleId,
              message: null,
              shadowRuleIds: [shadowId],
              skipped: null,
              classifier: 'none',
              risk: null,
              labels: [],
              classifierError: null,
            },
            {
              actionName: 'deploy',
              result: 'person',
              ruleId: null,
              message: null,
              shadowRuleIds: [],
              skipped: null,
              classifier: 'none',
              risk: null,
              labels: [],
              classifierError: null,
            },
          ],
        },
      ],
    });

    const draft = await http()
      .post('/api/classification/dry-run')
      .set('cookie', org.owner.cookie)
      .send({
        lastInterrupts: 5,
        rules: [
          {
            name: 'Draft',
            mode: 'enforce',
            match: { actions: ['refund*'] },
            outcome: { type: 'reject', message: 'Too much.' },
          },
        ],
      });
    expect(draft.status).toBe(200);
    expect(draft.body.results[0]).toEqual({
      interruptId: opened.body.id,
      title: 'Refund order 42',
      actions: [
        {
          actionName: 'refund',
          result: 'reject',
          ruleId: expect.any(String),
          message: 'Too much.',
          shadowRuleIds: [],
          skipped: null,
          classifier: 'none',
          risk: null,
          labels: [],
          classifierError: null,
        },
        {
          actionName: 'refund_fee',
          result: 'reject',
          ruleId: expect.any(String),
          message: 'Too much.',
          shadowRuleIds: [],
          skipped: null,
          classifier: 'none',
          risk: null,
          labels: [],
          classifierError: null,
        },
      ],
    });
    const badDraft = await http()
      .post('/api/classification/dry-run')
      .set('cookie', org.owner.cookie)
      .send({
        lastInterrupts: 1,
        rules: [
          {
            name: 'Bad',
            mode: 'enforce',
            match: { args: [{ path: 'a', op: 'lt', value: 'x' }] },
            outcome: { type: 'approve' },
          },
        ],
      });
    expect({ status: badDraft.status, message: badDraft.body.message }).toEqual({
      status: 400,
      message: 'rules[0].match.args[0].value: must be a number',
    });
    const none = await http()
      .post('/api/classification/dry-run')
      .set('cookie', org.owner.cookie)
      .send({});
    expect(none.status).toBe(400);
    const key = await http()
      .post('/api/classification/dry-run')
      .set('x-api-key', org.key)
      .send({ lastInterrupts: 1 });
    expect({ status: key.status, message: key.body.message }).toEqual({
      status: 403,
      message: 'This endpoint is reserved for humans.',
    });

    expect(
      (await http().get('/api/audit-log?limit=200').set('cookie', org.owner.cookie)).body.entries
        .length,
    ).toBe(auditBefore);
    expect(
      (await http().get(`/api/interrupts/${opened.body.id}`).set('x-api-key', org.key)).body
        .decisions,
    ).toEqual([]);
  });

  it('fails closed: when the rules cannot be evaluated, every action goes to a person and the log says why', async () => {
    const org = await newOrg('Broken rules');
    const id = await rule(org, { match: { actions: ['refund'] } });
    // A rule the engine cannot read (written around the API), before any interrupt loads the rules.
    await db.query(
      `UPDATE classification_rules SET match = '{"actions": 5}' WHERE organisation_id = $1 AND id = $2`,
      [org.owner.organisationId, id],
    );
    const res = await open(org, [{ name: 'refund' }]);
    expect(res.body.status).toBe('open');
    const log = await entries(org, res.body.id);
    expect(log.map((e) => [e.action, e.actorType])).toEqual([
      ['interrupt.created', 'api_key'],
      ['classification.failed', 'argus'],
    ]);
    expect(log[1].metadata).toEqual({ reason: expect.any(String), actionNames: ['refund'] });
  });
});
