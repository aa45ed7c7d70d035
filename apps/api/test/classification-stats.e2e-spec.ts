import request from 'supertest';
import { DataSource } from 'typeorm';
import { organisationWithKey, type OrganisationWithKey } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

// Issue 29 §2 / SPEC §8d: shadow statistics — matched N, would have decided M, people agreed K of
// the M they decided, the disagreements listed; and each person's decision says whether argus agreed.
describe('classification statistics and agreement', () => {
  let t: TestApp;
  let db: DataSource;
  const http = () => request(t.app.getHttpServer());

  type Org = OrganisationWithKey;
  const newOrg = (name: string) => organisationWithKey(t.app.getHttpServer(), name);
  const rule = async (org: Org, body: Record<string, unknown>) => {
    const res = await http()
      .post('/api/classification/rules')
      .set('cookie', org.owner.cookie)
      .send({ name: 'rule', mode: 'shadow', match: {}, outcome: { type: 'approve' }, ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const open = async (
    org: Org,
    actionRequests: Record<string, unknown>[],
    title = 'Refund order 42',
  ) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', org.key)
      .send({ title, actionRequests });
    expect(res.status).toBe(201);
    return res.body as { id: string; status: string };
  };
  const decide = async (org: Org, id: string, body: Record<string, unknown>) => {
    const res = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', org.owner.cookie)
      .send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const stats = async (org: Org, ruleId: string) => {
    const res = await http()
      .get(`/api/classification/rules/${ruleId}/stats`)
      .set('cookie', org.owner.cookie);
    expect(res.status).toBe(200);
    return res.body;
  };
  const decidedEntries = async (org: Org, interruptId: string) => {
    const res = await http()
      .get(`/api/audit-log?targetId=${interruptId}&action=interrupt.decided`)
      .set('cookie', org.owner.cookie);
    expect(res.status).toBe(200);
    return (res.body.entries as { metadata: Record<string, unknown> }[]).map((e) => e.metadata);
  };

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts a shadow rule’s matches and how often people agreed, lists the disagreements, and puts its opinion on each decision', async () => {
    const org = await newOrg('Shadow stats');
    const ruleId = await rule(org, {
      name: 'Small refunds',
      match: { actions: ['refund'], args: [{ path: 'amount', op: 'lte', value: 100 }] },
    });
    const a = await open(org, [{ name: 'refund', args: { amount: 10 } }], 'Refund A');
    const b = await open(org, [{ name: 'refund', args: { amount: 20 } }], 'Refund B');
    const c = await open(org, [{ name: 'refund', args: { amount: 30 } }], 'Refund C');
    const big = await open(org, [{ name: 'refund', args: { amount: 500 } }], 'Refund big');
    for (const i of [a, b, c, big]) expect(i.status).toBe('open');

    // Before anyone decides: three matches, three it would have decided, none compared yet.
    expect(await stats(org, ruleId)).toEqual({
      ruleId,
      shadow: { matched: 3, wouldDecide: 3, decidedByPeople: 0, agreed: 0 },
      enforce: { matched: 0, decided: 0 },
      lastMatchedAt: expect.stringMatching(/Z$/),
      disagreements: [],
    });

    await decide(org, a.id, { actionName: 'refund', decision: 'approve' });
    await decide(org, b.id, { actionName: 'refund', decision: 'approve' });
    await decide(org, c.id, {
      actionName: 'refund',
      decision: 'reject',
      message: 'Customer abused refunds.',
    });
    await decide(org, big.id, { actionName: 'refund', decision: 'reject' });

    const after = await stats(org, ruleId);
    expect(after.shadow).toEqual({ matched: 3, wouldDecide: 3, decidedByPeople: 3, agreed: 2 });
    expect(after.disagreements).toEqual([
      {
        interruptId: c.id,
        title: 'Refund C',
        actionName: 'refund',
        outcome: 'approve',
        decision: 'reject',
        decidedByName: 'Ada Lovelace',
        decidedAt: expect.stringMatching(/Z$/),
      },
    ]);

    // The decision's own audit entry says whether argus would have agreed; unmatched actions say nothing.
    expect(await decidedEntries(org, a.id)).toEqual([
      {
        actionName: 'refund',
        decision: 'approve',
        becameAnswered: true,
        argus: [{ ruleId, outcome: 'approve', agreed: true }],
      },
    ]);
    expect(await decidedEntries(org, c.id)).toEqual([
      {
        actionName: 'refund',
        decision: 'reject',
        becameAnswered: true,
        argus: [{ ruleId, outcome: 'approve', agreed: false }],
      },
    ]);
    expect(await decidedEntries(org, big.id)).toEqual([
      { actionName: 'refund', decision: 'reject', becameAnswered: true },
    ]);

    // The list carries every rule's figures.
    const list = await http().get('/api/classification/rules').set('cookie', org.owner.cookie);
    expect(list.body.rules).toEqual([
      expect.objectContaining({
        id: ruleId,
        stats: {
          shadow: after.shadow,
          enforce: { matched: 0, decided: 0 },
          lastMatchedAt: after.lastMatchedAt,
        },
      }),
    ]);
  });

  it('an edit or a response is not agreement; a shadow rule that would not decide (route, a decision not allowed) is never compared', async () => {
    const org = await newOrg('Not comparable');
    const approve = await rule(org, {
      name: 'Approve deploys',
      priority: 1,
      match: { actions: ['deploy'] },
    });
    const route = await rule(org, {
      name: 'Route deploys',
      priority: 2,
      match: { actions: ['deploy'] },
      outcome: { type: 'route', escalate: true },
    });
    const edited = await open(org, [{ name: 'deploy', args: { env: 'prod' } }]);
    const answered = await open(org, [
      { name: 'deploy', args: { env: 'prod' }, allowedDecisions: ['respond'] },
    ]);
    await decide(org, edited.id, {
      actionName: 'deploy',
      decision: 'edit',
      editedArgs: { env: 'staging' },
    });
    await decide(org, answered.id, {
      actionName: 'deploy',
      decision: 'respond',
      message: 'Not today.',
    });

    expect((await stats(org, approve)).shadow).toEqual({
      matched: 2,
      wouldDecide: 1,
      decidedByPeople: 1,
      agreed: 0,
    });
    expect(
      (await stats(org, approve)).disagreements.map((d: { decision: string }) => d.decision),
    ).toEqual(['edit']);
    expect((await stats(org, route)).shadow).toEqual({
      matched: 2,
      wouldDecide: 0,
      decidedByPeople: 0,
      agreed: 0,
    });
    expect(await decidedEntries(org, edited.id)).toEqual([
      {
        actionName: 'deploy',
        decision: 'edit',
        becameAnswered: true,
        argus: [
          { ruleId: approve, outcome: 'approve', agreed: false },
          { ruleId: route, outcome: 'route', agreed: null },
        ].sort((x, y) => x.ruleId.localeCompare(y.ruleId)),
      },
    ]);
    expect((await decidedEntries(org, answered.id))[0].argus).toEqual(
      [
        { ruleId: approve, outcome: 'approve', agreed: null },
        { ruleId: route, outcome: 'route', agreed: null },
      ].sort((x, y) => x.ruleId.localeCompare(y.ruleId)),
    );
  });

  it('switching to enforce keeps the shadow figures and counts what it decides; a new match or outcome starts again; deleting drops them', async () => {
    const org = await newOrg('Enforce stats');
    const ruleId = await rule(org, { match: { actions: ['refund'] } });
    const first = await open(org, [{ name: 'refund' }]);
    await decide(org, first.id, { actionName: 'refund', decision: 'approve' });

    const switched = await http()
      .patch(`/api/classification/rules/${ruleId}`)
      .set('cookie', org.owner.cookie)
      .send({ mode: 'enforce' });
    expect(switched.status).toBe(200);
    const auto = await open(org, [{ name: 'refund' }]);
    expect(auto.status).toBe('answered');
    const notAllowed = await open(org, [{ name: 'refund', allowedDecisions: ['reject'] }]);
    expect(notAllowed.status).toBe('open');
    const figures = await stats(org, ruleId);
    expect(figures.shadow).toEqual({ matched: 1, wouldDecide: 1, decidedByPeople: 1, agreed: 1 });
    expect(figures.enforce).toEqual({ matched: 2, decided: 1 });
    // An enforced rule's match is not compared with the person who decides what it left.
    await decide(org, notAllowed.id, { actionName: 'refund', decision: 'reject' });
    expect(await decidedEntries(org, notAllowed.id)).toEqual([
      { actionName: 'refund', decision: 'reject', becameAnswered: true },
    ]);

    // A renamed rule keeps its figures; a changed match starts them again.
    await http()
      .patch(`/api/classification/rules/${ruleId}`)
      .set('cookie', org.owner.cookie)
      .send({ name: 'Refunds' })
      .expect(200);
    expect((await stats(org, ruleId)).enforce).toEqual({ matched: 2, decided: 1 });
    await http()
      .patch(`/api/classification/rules/${ruleId}`)
      .set('cookie', org.owner.cookie)
      .send({ match: { actions: ['refund', 'credit'] } })
      .expect(200);
    expect(await stats(org, ruleId)).toEqual({
      ruleId,
      shadow: { matched: 0, wouldDecide: 0, decidedByPeople: 0, agreed: 0 },
      enforce: { matched: 0, decided: 0 },
      lastMatchedAt: null,
      disagreements: [],
    });

    await open(org, [{ name: 'credit' }]);
    const count = async () =>
      Number(
        (
          await db.query(
            `SELECT count(*) AS n FROM classification_matches WHERE organisation_id = $1`,
            [org.owner.organisationId],
          )
        )[0].n,
      );
    expect(await count()).toBe(1);
    await http()
      .delete(`/api/classification/rules/${ruleId}`)
      .set('cookie', org.owner.cookie)
      .expect(204);
    expect(await count()).toBe(0);
  });

  it('statistics are the organisation’s: another organisation gets 404, a key the exact 403', async () => {
    const org = await newOrg('Mine');
    const other = await newOrg('Theirs');
    const ruleId = await rule(org, { match: { actions: ['refund'] } });
    await open(org, [{ name: 'refund' }]);
    // The other organisation's identical interrupt is not counted, and cannot read these figures.
    await open(other, [{ name: 'refund' }]);
    expect((await stats(org, ruleId)).shadow.matched).toBe(1);
    const theirs = await http()
      .get(`/api/classification/rules/${ruleId}/stats`)
      .set('cookie', other.owner.cookie);
    expect(theirs.status).toBe(404);
    const byKey = await http()
      .get(`/api/classification/rules/${ruleId}/stats`)
      .set('x-api-key', org.key);
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'HUMANS_ONLY',
      message: 'This endpoint is reserved for humans.',
      requestId: expect.any(String),
    });
  });
  it('the retention job, run by the job runner, deletes matches older than 90 days across organisations; the figures then count what is kept', async () => {
    const org = await newOrg('Retained');
    const other = await newOrg('Retained too');
    const ruleId = await rule(org, { name: 'Refunds', match: { actions: ['refund'] } });
    const theirRule = await rule(other, { name: 'Theirs', match: { actions: ['refund'] } });
    const old = await open(org, [{ name: 'refund', args: { amount: 1 } }], 'Old refund');
    const kept = await open(org, [{ name: 'refund', args: { amount: 2 } }], 'Kept refund');
    const theirsOld = await open(other, [{ name: 'refund' }], 'Their old refund');
    await db.query(
      `UPDATE classification_matches SET created_at = now() - interval '90 days 1 minute' WHERE interrupt_id = ANY($1)`,
      [[old.id, theirsOld.id]],
    );
    await db.query(
      `UPDATE classification_matches SET created_at = now() - interval '89 days 23 hours' WHERE interrupt_id = $1`,
      [kept.id],
    );
    expect((await stats(org, ruleId)).shadow.matched).toBe(2);

    // The job is the runner's: registered in scheduled_jobs; made due, an instance runs it.
    await waitFor(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM scheduled_jobs WHERE name = 'classification-match-retention'`,
          )
        ).length === 1,
      'classification-match-retention to be scheduled',
    );
    await db.query(
      `UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = 'classification-match-retention'`,
    );
    await waitFor(
      async () =>
        (
          await db.query(`SELECT 1 FROM classification_matches WHERE interrupt_id = ANY($1)`, [
            [old.id, theirsOld.id],
          ])
        ).length === 0,
      'the old matches to be deleted',
    );
    const left = await db.query(
      `SELECT interrupt_id FROM classification_matches WHERE rule_id = ANY($1)`,
      [[ruleId, theirRule]],
    );
    expect(left).toEqual([{ interrupt_id: kept.id }]);
    expect((await stats(org, ruleId)).shadow.matched).toBe(1);
    expect((await stats(other, theirRule)).shadow.matched).toBe(0);
    // The rule and the interrupts stay; only the figures age out.
    const interrupt = await http().get(`/api/interrupts/${old.id}`).set('x-api-key', org.key);
    expect(interrupt.status).toBe(200);
  });
});
