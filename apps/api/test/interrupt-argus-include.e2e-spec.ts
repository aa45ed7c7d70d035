import request from 'supertest';
import {
  builtInRoleIds,
  joinOrganisation,
  memberWithPermissions,
  organisationWithKey,
  type OrganisationWithKey,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 31 §1/§5 (SPEC §5 (D) include=argus): why argus did what it did to an interrupt is read
// by whoever may read the interrupt — the entries argus wrote about it — without the audit log.
describe('GET /api/interrupts/{id}?include=argus', () => {
  let t: TestApp;
  let org: OrganisationWithKey;
  let other: OrganisationWithKey;
  const http = () => request(t.app.getHttpServer());

  const rule = async (o: OrganisationWithKey, body: Record<string, unknown>) => {
    const res = await http()
      .post('/api/classification/rules')
      .set('cookie', o.owner.cookie)
      .send({ mode: 'enforce', match: {}, outcome: { type: 'approve' }, ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const open = async (o: OrganisationWithKey, actionRequests: Record<string, unknown>[]) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', o.key)
      .send({ title: 'Refund and export', actionRequests });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await organisationWithKey(t.app.getHttpServer(), 'Receipts');
    other = await organisationWithKey(t.app.getHttpServer(), 'Elsewhere');
  });
  afterAll(async () => {
    await t.close();
  });

  it("a member with interrupt.read but not the audit log reads argus's receipts, its route, and nothing a person did", async () => {
    const roles = await builtInRoleIds(t.app.getHttpServer(), org.owner.cookie);
    const oncall = await joinOrganisation(
      t.app.getHttpServer(),
      org.owner.cookie,
      roles.manager,
      'Otto Oncall',
    );
    const approve = await rule(org, {
      name: 'Small refunds',
      priority: 1,
      match: { actions: ['refund'] },
    });
    const watch = await rule(org, {
      name: 'Watch exports',
      mode: 'shadow',
      priority: 2,
      match: { actions: ['export'] },
      outcome: { type: 'reject', message: 'Exports need a person.' },
    });
    const route = await rule(org, {
      name: 'Exports to on-call',
      priority: 3,
      match: { actions: ['export'] },
      outcome: { type: 'route', assignTo: { memberId: oncall.memberId } },
    });
    const opened = await open(org, [{ name: 'refund', args: { amount: 5 } }, { name: 'export' }]);
    // A person's doing is not argus's: it stays out of the answer.
    await http()
      .post(`/api/interrupts/${opened.id}/escalate`)
      .set('cookie', org.owner.cookie)
      .send({ reason: 'legal' })
      .expect(200);

    const reader = await memberWithPermissions(t.app.getHttpServer(), org.owner.cookie, [
      'interrupt.read',
    ]);
    const res = await http()
      .get(`/api/interrupts/${opened.id}`)
      .query({ include: 'argus' })
      .set('cookie', reader.cookie);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('history');
    const argus = res.body.argus as {
      action: string;
      actorType: string;
      actorName: string;
      createdAt: string;
      metadata: Record<string, unknown> | null;
    }[];
    expect(argus.map((e) => [e.action, e.metadata?.actionName ?? null])).toEqual([
      ['classification.applied', 'refund'],
      ['classification.shadowed', 'export'],
      ['classification.applied', 'export'],
      ['interrupt.decided', 'refund'],
      ['interrupt.assigned', null],
    ]);
    expect(argus.every((e) => e.actorType === 'argus' && e.actorName === 'argus')).toBe(true);
    expect(argus[0].metadata).toEqual({
      actionName: 'refund',
      ruleIds: [approve],
      policyVersion: 3,
      mode: 'enforce',
      outcome: 'approve',
      enforced: true,
    });
    expect(argus[1].metadata).toEqual({
      actionName: 'export',
      ruleIds: [watch],
      policyVersion: 3,
      mode: 'shadow',
      outcome: 'reject',
      enforced: false,
    });
    expect(argus[2].metadata).toMatchObject({ ruleIds: [route], outcome: 'route' });
    expect(argus[4].metadata).toMatchObject({
      assigneeType: 'member',
      assigneeId: oncall.memberId,
      assigneeName: 'Otto Oncall',
    });
    const times = argus.map((e) => e.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(times.every((at) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(at))).toBe(
      true,
    );

    // The same entries as the audit log's history holds for them, field for field.
    const withHistory = await http()
      .get(`/api/interrupts/${opened.id}`)
      .query({ include: 'history,argus' })
      .set('cookie', org.owner.cookie);
    expect(withHistory.status).toBe(200);
    expect(withHistory.body.argus).toEqual(argus);
    expect(
      (withHistory.body.history as { actorType: string }[]).filter((h) => h.actorType === 'argus'),
    ).toEqual(argus);
    expect(withHistory.body.history.map((h: { action: string }) => h.action)).toContain(
      'interrupt.escalated',
    );

    // The history itself stays the audit log's.
    const refused = await http()
      .get(`/api/interrupts/${opened.id}`)
      .query({ include: 'argus,history' })
      .set('cookie', reader.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing permission: auditLog.read.');
  });

  it('the agent’s key reads it on any plan; an interrupt argus had no part in has none; another organisation sees nothing', async () => {
    const plain = await open(other, [{ name: 'deploy' }]);
    const res = await http()
      .get(`/api/interrupts/${plain.id}?include=argus`)
      .set('x-api-key', other.key);
    expect(res.status).toBe(200);
    expect(res.body.argus).toEqual([]);
    // Listings and the plain record carry no such field.
    const bare = await http().get(`/api/interrupts/${plain.id}`).set('x-api-key', other.key);
    expect(bare.body).not.toHaveProperty('argus');
    const list = await http()
      .get('/api/interrupts')
      .query({ limit: 1 })
      .set('x-api-key', other.key);
    expect(list.body.interrupts[0]).not.toHaveProperty('argus');

    const decided = await open(org, [{ name: 'refund' }]);
    const byKey = await http()
      .get(`/api/interrupts/${decided.id}?include=argus`)
      .set('x-api-key', org.key);
    expect(byKey.status).toBe(200);
    expect(byKey.body.argus.map((e: { action: string }) => e.action)).toEqual([
      'classification.applied',
      'interrupt.decided',
    ]);
    const foreign = await http()
      .get(`/api/interrupts/${decided.id}?include=argus`)
      .set('x-api-key', other.key);
    expect(foreign.status).toBe(404);
  });
});
