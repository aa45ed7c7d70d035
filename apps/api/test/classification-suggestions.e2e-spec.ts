import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  joinOrganisation,
  organisationWithKey,
  type OrganisationWithKey,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 29 §2 / SPEC §8d: after at least 5 approvals and no rejection by people of the same
// (key, action, argument shape) in 30 days, argus suggests a rule; a person applies it (shadow or
// enforce) or dismisses it (remembered); both audited; nothing enforced without a person.
describe('classification suggestions', () => {
  let t: TestApp;
  let db: DataSource;
  const http = () => request(t.app.getHttpServer());

  type Org = OrganisationWithKey;
  const newOrg = (name: string) => organisationWithKey(t.app.getHttpServer(), name);
  const open = async (org: Org, name: string, args: Record<string, unknown>, key = org.key) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: `${name} ${JSON.stringify(args)}`, actionRequests: [{ name, args }] });
    expect(res.status).toBe(201);
    return res.body as {
      id: string;
      status: string;
      decisions: { decision: string; decidedBy: Record<string, unknown> }[];
    };
  };
  const decide = async (org: Org, id: string, actionName: string, decision: string) => {
    const res = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', org.owner.cookie)
      .send({ actionName, decision, ...(decision === 'respond' ? { message: 'Noted.' } : {}) });
    expect(res.status).toBe(201);
  };
  /** Opens and has a person decide one action; answers the interrupt id. */
  const decided = async (
    org: Org,
    name: string,
    args: Record<string, unknown>,
    decision = 'approve',
  ) => {
    const opened = await open(org, name, args);
    await decide(org, opened.id, name, decision);
    return opened.id;
  };
  const list = async (org: Org, cookie = org.owner.cookie) => {
    const res = await http().get('/api/classification/suggestions').set('cookie', cookie);
    expect(res.status).toBe(200);
    return res.body.suggestions as {
      id: string;
      keyId: string;
      actionName: string;
      approvals: number;
      latestInterruptId: string;
      rule: Record<string, unknown>;
    }[];
  };
  const audit = async (org: Org, action: string) => {
    const res = await http().get(`/api/audit-log?action=${action}`).set('cookie', org.owner.cookie);
    expect(res.status).toBe(200);
    return res.body.entries as Record<string, unknown>[];
  };

  /** A Manager of the organisation (classification.read, not classification.manage). */
  const managerOf = async (org: Org) => {
    const roles = await builtInRoleIds(t.app.getHttpServer(), org.owner.cookie);
    return joinOrganisation(t.app.getHttpServer(), org.owner.cookie, roles.manager, 'Mary Manager');
  };

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
  });

  it('suggests the rule after the fifth approval of one key, action and argument shape, with the narrowest conditions the approvals support', async () => {
    const org = await newOrg('Suggested');
    const refund = (amount: number, orderId: string) => ({ amount, currency: 'EUR', orderId });
    let latest = '';
    for (const [i, amount] of [10, 45, 20, 50].entries())
      latest = await decided(org, 'refund', refund(amount, `o-${i}`));
    expect(await list(org)).toEqual([]);
    // Other shapes, edits and responses are not this evidence.
    await decided(org, 'refund', { amount: 5, currency: 'EUR', orderId: 'x', note: 'extra' });
    await decided(org, 'refund', refund(5, 'edited'), 'respond');
    expect(await list(org)).toEqual([]);

    latest = await decided(org, 'refund', refund(30, 'o-4'));
    const suggestions = await list(org);
    expect(suggestions).toEqual([
      {
        id: expect.stringMatching(
          /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        ),
        keyId: org.keyId,
        keyName: 'billing-agent',
        actionName: 'refund',
        shape: { amount: 'number', currency: 'string', orderId: 'string' },
        approvals: 5,
        lastApprovedAt: expect.stringMatching(/Z$/),
        latestInterruptId: latest,
        rule: {
          name: 'Approve refund from billing-agent',
          priority: 1000,
          match: {
            actions: ['refund'],
            keyIds: [org.keyId],
            args: [
              { path: 'amount', op: 'lte', value: 50 },
              { path: 'currency', op: 'eq', value: 'EUR' },
            ],
          },
          outcome: { type: 'approve' },
        },
      },
    ]);
    // The id is stable from one reading to the next.
    expect((await list(org))[0].id).toBe(suggestions[0].id);
    // Nothing is enforced by a suggestion: the next refund still waits for a person.
    expect((await open(org, 'refund', refund(10, 'o-5'))).status).toBe('open');
  });

  it('a rejection, approvals older than 30 days, or decisions argus took are not evidence; a few distinct strings become `in`', async () => {
    const org = await newOrg('Evidence');
    for (let i = 0; i < 5; i++) await decided(org, 'payout', { to: `acct-${i}` });
    await decided(org, 'payout', { to: 'acct-9' }, 'reject');
    const olds: string[] = [];
    for (let i = 0; i < 5; i++) olds.push(await decided(org, 'archive', { days: 7 }));
    await db.query(
      `UPDATE interrupt_decisions SET decided_at = now() - interval '31 days' WHERE interrupt_id = ANY($1)`,
      [olds],
    );
    for (const tier of ['gold', 'gold', 'silver', 'gold', 'silver'])
      await decided(org, 'upgrade', { tier });
    const suggestions = await list(org);
    expect(suggestions.map((s) => [s.actionName, s.approvals])).toEqual([['upgrade', 5]]);
    expect(suggestions[0].rule.match).toEqual({
      actions: ['upgrade'],
      keyIds: [org.keyId],
      args: [{ path: 'tier', op: 'in', value: ['gold', 'silver'] }],
    });

    // Approvals argus made by a rule are not people's approvals.
    const rule = await http()
      .post('/api/classification/rules')
      .set('cookie', org.owner.cookie)
      .send({
        name: 'Ping',
        mode: 'enforce',
        match: { actions: ['ping'] },
        outcome: { type: 'approve' },
      });
    expect(rule.status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await open(org, 'ping', {})).status).toBe('answered');
    expect((await list(org)).map((s) => s.actionName)).toEqual(['upgrade']);
  });

  it('applying makes the rule in the chosen mode, audited with its evidence in one transaction; the next identical request is answered at once', async () => {
    const org = await newOrg('Applied');
    for (let i = 0; i < 6; i++) await decided(org, 'refund', { amount: 10 + i, currency: 'EUR' });
    const [suggestion] = await list(org);

    const bad = await http()
      .post(`/api/classification/suggestions/${suggestion.id}/apply`)
      .set('cookie', org.owner.cookie)
      .send({ mode: 'off' });
    expect({ status: bad.status, code: bad.body.code, message: bad.body.message }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'mode must be one of shadow, enforce',
    });

    const applied = await http()
      .post(`/api/classification/suggestions/${suggestion.id}/apply`)
      .set('cookie', org.owner.cookie)
      .send({ mode: 'enforce' });
    expect(applied.status).toBe(201);
    expect(applied.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Approve refund from billing-agent',
      mode: 'enforce',
      priority: 1000,
      match: {
        actions: ['refund'],
        keyIds: [org.keyId],
        args: [
          { path: 'amount', op: 'lte', value: 15 },
          { path: 'currency', op: 'eq', value: 'EUR' },
        ],
      },
      outcome: { type: 'approve' },
      expiresAt: null,
      origin: 'suggestion',
      originInterruptId: suggestion.latestInterruptId,
      paused: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const [created] = await audit(org, 'classification.rule_created');
    expect(created).toMatchObject({
      actorType: 'member',
      actorName: 'Ada Lovelace',
      targetType: 'classification',
      targetId: applied.body.id,
      summary:
        'Classification rule Approve refund from billing-agent created (enforce) by Ada Lovelace from a suggestion (6 approvals)',
      metadata: {
        rule: expect.objectContaining({ mode: 'enforce' }),
        origin: {
          type: 'suggestion',
          suggestionId: suggestion.id,
          keyId: org.keyId,
          actionName: 'refund',
          shape: { amount: 'number', currency: 'string' },
          approvals: 6,
        },
      },
    });
    // Gone from the list; applying again names nothing.
    expect(await list(org)).toEqual([]);
    const again = await http()
      .post(`/api/classification/suggestions/${suggestion.id}/apply`)
      .set('cookie', org.owner.cookie)
      .send({ mode: 'enforce' });
    expect({ status: again.status, code: again.body.code }).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });

    // The next identical request is answered by argus in the create response; a larger one waits.
    const next = await open(org, 'refund', { amount: 12, currency: 'EUR' });
    expect(next.status).toBe('answered');
    expect(next.decisions[0]).toMatchObject({
      decision: 'approve',
      decidedBy: { type: 'argus', ruleId: applied.body.id, name: 'argus' },
    });
    expect((await open(org, 'refund', { amount: 16, currency: 'EUR' })).status).toBe('open');

    // Deleting the rule brings the suggestion back while the evidence holds.
    const deleted = await http()
      .delete(`/api/classification/rules/${applied.body.id}`)
      .set('cookie', org.owner.cookie);
    expect(deleted.status).toBe(204);
    expect((await list(org)).map((s) => s.id)).toEqual([suggestion.id]);
  });

  it('two people applying at once make one rule; the other is told', async () => {
    const org = await newOrg('Raced');
    for (let i = 0; i < 5; i++) await decided(org, 'tag', { label: 'ok' });
    const [suggestion] = await list(org);
    const answers = await Promise.all(
      [0, 1].map(() =>
        http()
          .post(`/api/classification/suggestions/${suggestion.id}/apply`)
          .set('cookie', org.owner.cookie)
          .send({ mode: 'shadow' }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(201);
    expect([404, 409]).toContain(statuses[1]);
    const rules = await http().get('/api/classification/rules').set('cookie', org.owner.cookie);
    expect(
      rules.body.rules.map((r: { origin: string; mode: string }) => [r.origin, r.mode]),
    ).toEqual([['suggestion', 'shadow']]);
    expect(await audit(org, 'classification.rule_created')).toHaveLength(1);
  });

  it('dismissing is remembered and audited: the suggestion does not come back with more approvals', async () => {
    const org = await newOrg('Dismissed');
    for (let i = 0; i < 5; i++) await decided(org, 'deploy', { env: 'staging' });
    const [suggestion] = await list(org);
    const dismissed = await http()
      .post(`/api/classification/suggestions/${suggestion.id}/dismiss`)
      .set('cookie', org.owner.cookie);
    expect(dismissed.status).toBe(204);
    expect(await list(org)).toEqual([]);
    const [entry] = await audit(org, 'classification.suggestion_dismissed');
    expect(entry).toMatchObject({
      category: 'classification',
      actorType: 'member',
      actorName: 'Ada Lovelace',
      targetType: 'classification',
      targetId: suggestion.id,
      targetName: 'Approve deploy from billing-agent',
      summary:
        'Suggestion Approve deploy from billing-agent (5 approvals) dismissed by Ada Lovelace',
      metadata: {
        suggestionId: suggestion.id,
        keyId: org.keyId,
        actionName: 'deploy',
        shape: { env: 'string' },
        approvals: 5,
      },
    });
    for (let i = 0; i < 3; i++) await decided(org, 'deploy', { env: 'staging' });
    expect(await list(org)).toEqual([]);
    const again = await http()
      .post(`/api/classification/suggestions/${suggestion.id}/dismiss`)
      .set('cookie', org.owner.cookie);
    expect(again.status).toBe(404);
    // No rule was made.
    const rules = await http().get('/api/classification/rules').set('cookie', org.owner.cookie);
    expect(rules.body.rules).toEqual([]);
  });

  it('a dismissal is undone by restore: listed again, audited once; only dismissals of the organisation itself, by classification.manage, for members', async () => {
    const org = await newOrg('Restored');
    for (let i = 0; i < 5; i++) await decided(org, 'deploy', { env: 'staging' });
    for (let i = 0; i < 5; i++) await decided(org, 'tag', { label: 'ok' });
    const byAction = Object.fromEntries((await list(org)).map((s) => [s.actionName, s]));
    const restore = (id: string) => http().post(`/api/classification/suggestions/${id}/restore`);
    // Not dismissed (listed), or unknown: nothing to undo.
    for (const id of [byAction.deploy.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await restore(id).set('cookie', org.owner.cookie);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 404,
        message: 'Not found.',
      });
    }
    const dismissed = await http()
      .post(`/api/classification/suggestions/${byAction.deploy.id}/dismiss`)
      .set('cookie', org.owner.cookie);
    expect(dismissed.status).toBe(204);
    expect((await list(org)).map((s) => s.actionName)).toEqual(['tag']);

    // Another organisation's owner, a Manager, a key: refused, and the dismissal stays.
    const stranger = await newOrg('Stranger');
    const foreign = await restore(byAction.deploy.id).set('cookie', stranger.owner.cookie);
    expect({ status: foreign.status, message: foreign.body.message }).toEqual({
      status: 404,
      message: 'Not found.',
    });
    const manager = await managerOf(org);
    const managed = await restore(byAction.deploy.id).set('cookie', manager.cookie);
    expect({ status: managed.status, message: managed.body.message }).toEqual({
      status: 403,
      message: 'Missing permission: classification.manage.',
    });
    const keyed = await restore(byAction.deploy.id).set('x-api-key', org.key);
    expect({ status: keyed.status, code: keyed.body.code }).toEqual({
      status: 403,
      code: 'HUMANS_ONLY',
    });
    expect((await list(org)).map((s) => s.actionName)).toEqual(['tag']);
    expect(await audit(org, 'classification.suggestion_restored')).toEqual([]);

    const restored = await restore(byAction.deploy.id).set('cookie', org.owner.cookie);
    expect(restored.status).toBe(204);
    expect((await list(org)).map((s) => [s.id, s.approvals]).sort()).toEqual(
      [
        [byAction.deploy.id, 5],
        [byAction.tag.id, 5],
      ].sort(),
    );
    const entries = await audit(org, 'classification.suggestion_restored');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      category: 'classification',
      actorType: 'member',
      actorName: 'Ada Lovelace',
      targetType: 'classification',
      targetId: byAction.deploy.id,
      targetName: 'Approve deploy from billing-agent',
      summary: 'Suggestion Approve deploy from billing-agent restored by Ada Lovelace',
      metadata: {
        suggestionId: byAction.deploy.id,
        keyId: org.keyId,
        actionName: 'deploy',
        shape: { env: 'string' },
      },
    });
    // Once: a second restore has nothing to undo.
    expect((await restore(byAction.deploy.id).set('cookie', org.owner.cookie)).status).toBe(404);
    // An applied suggestion is not a dismissal: restore leaves its record (and rule) alone.
    const applied = await http()
      .post(`/api/classification/suggestions/${byAction.tag.id}/apply`)
      .set('cookie', org.owner.cookie)
      .send({ mode: 'shadow' });
    expect(applied.status).toBe(201);
    expect((await restore(byAction.tag.id).set('cookie', org.owner.cookie)).status).toBe(404);
    expect((await list(org)).map((s) => s.id)).toEqual([byAction.deploy.id]);
    const recorded = await db.query(
      `SELECT status FROM classification_suggestions WHERE organisation_id = $1 ORDER BY status`,
      [org.owner.organisationId],
    );
    expect(recorded).toEqual([{ status: 'applied' }]);
  });

  it('is not listed while an enforce-mode rule already approves every action it was read from; shadow rules, and rules covering only some, leave it listed', async () => {
    const org = await newOrg('Covered');
    for (const amount of [10, 20, 30, 40, 50]) await decided(org, 'refund', { amount });
    const [suggestion] = await list(org);
    expect(suggestion).toMatchObject({ actionName: 'refund', approvals: 5 });
    const rule = async (mode: string, max: number) => {
      const res = await http()
        .post('/api/classification/rules')
        .set('cookie', org.owner.cookie)
        .send({
          name: `refunds up to ${max} (${mode})`,
          mode,
          priority: 10,
          match: { actions: ['refund'], args: [{ path: 'amount', op: 'lte', value: max }] },
          outcome: { type: 'approve' },
        });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const patch = async (id: string, body: Record<string, unknown>) => {
      const res = await http()
        .patch(`/api/classification/rules/${id}`)
        .set('cookie', org.owner.cookie)
        .send(body);
      expect(res.status).toBe(200);
    };
    const shadow = await rule('shadow', 100);
    expect((await list(org)).map((s) => s.id)).toEqual([suggestion.id]);
    // Enforced but covering 3 of the 5 approved amounts: still suggested.
    await rule('enforce', 30);
    expect((await list(org)).map((s) => s.id)).toEqual([suggestion.id]);
    // The shadow rule enforced covers all five: the suggestion is not listed…
    await patch(shadow, { mode: 'enforce' });
    expect(await list(org)).toEqual([]);
    // …and comes back when that rule is off again (nothing was recorded about the suggestion).
    await patch(shadow, { mode: 'off' });
    expect((await list(org)).map((s) => s.id)).toEqual([suggestion.id]);
  });

  it('is for members: Managers read, applying needs classification.manage, a key gets the exact 403, another organisation gets 404', async () => {
    const org = await newOrg('Guarded');
    for (let i = 0; i < 5; i++) await decided(org, 'refund', { amount: 1 });
    const [suggestion] = await list(org);
    const manager = await managerOf(org);
    expect((await list(org, manager.cookie)).map((s) => s.id)).toEqual([suggestion.id]);
    for (const req of [
      http()
        .post(`/api/classification/suggestions/${suggestion.id}/apply`)
        .send({ mode: 'enforce' }),
      http().post(`/api/classification/suggestions/${suggestion.id}/dismiss`),
    ]) {
      const res = await req.set('cookie', manager.cookie);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 403,
        message: 'Missing permission: classification.manage.',
      });
    }
    for (const req of [
      http().get('/api/classification/suggestions'),
      http()
        .post(`/api/classification/suggestions/${suggestion.id}/apply`)
        .send({ mode: 'enforce' }),
      http().post(`/api/classification/suggestions/${suggestion.id}/dismiss`),
    ]) {
      const res = await req.set('x-api-key', org.key);
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: 403,
        code: 'HUMANS_ONLY',
      });
    }
    const stranger = await newOrg('Stranger');
    expect(await list(stranger)).toEqual([]);
    for (const req of [
      http()
        .post(`/api/classification/suggestions/${suggestion.id}/apply`)
        .send({ mode: 'enforce' }),
      http().post(`/api/classification/suggestions/${suggestion.id}/dismiss`),
    ]) {
      const res = await req.set('cookie', stranger.owner.cookie);
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    // Still there for its own organisation.
    expect((await list(org)).map((s) => s.id)).toEqual([suggestion.id]);
  });
});
