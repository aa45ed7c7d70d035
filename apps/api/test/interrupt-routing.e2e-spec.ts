import type request from 'supertest';
import { notificationSuite } from './support/notification-suite';

/**
 * Routing at creation (issue 37 §1, SPEC §8e): the agent's `priority`, `assignTo` (a member by id
 * or email, a team by id or name) and `labels` — checked against the organisation, audited.
 */
describe('routing an interrupt as it opens (priority, assignTo, labels)', () => {
  const suite = notificationSuite({
    organisationName: 'Routing Works',
    managers: ['Grace Hopper', 'Alan Turing'],
  });
  const { http } = suite;
  let teamId: string;

  const open = (body: Record<string, unknown>) =>
    http()
      .post('/api/interrupts')
      .set('x-api-key', suite.key)
      .send({ title: 'Refund order 881', actionRequests: [{ name: 'refund' }], ...body });
  const audit = (
    id: string,
  ): Promise<{ action: string; actor_type: string; actor_name: string; metadata: unknown }[]> =>
    suite.db().query(
      `SELECT action, actor_type, actor_name, metadata FROM audit_log_entries
          WHERE organisation_id = $1 AND target_id = $2 ORDER BY seq`,
      [suite.owner.organisationId, id],
    );
  const countOpened = async (): Promise<number> =>
    (
      await suite
        .db()
        .query(`SELECT count(*)::int AS n FROM interrupts WHERE organisation_id = $1`, [
          suite.owner.organisationId,
        ])
    )[0].n;

  beforeAll(async () => {
    const team = await http()
      .post('/api/teams')
      .set('cookie', suite.owner.cookie)
      .send({ name: 'Refunds desk' });
    expect(team.status).toBe(201);
    teamId = team.body.id;
  });

  it('an interrupt opens at priority normal with no labels, and the record says so', async () => {
    const created = await open({});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      priority: 'normal',
      labels: [],
      classifierLabels: [],
      assignee: null,
    });
    // Nothing asked, nothing added: the (S) metadata as it always was.
    const [entry] = await audit(created.body.id);
    expect(entry).toMatchObject({ action: 'interrupt.created' });
    expect(entry.metadata).toEqual({ externalId: null, actionRequests: ['refund'] });
  });

  it('keeps the priority and the labels (repeated ones once, in order) in the record, its reads and the listing', async () => {
    const created = await open({ priority: 'urgent', labels: ['billing', 'eu/west', 'billing'] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      priority: 'urgent',
      labels: ['billing', 'eu/west'],
      classifierLabels: [],
    });
    // The agent's read answers the record kept with the row; a member's detail read renders it.
    const kept = await http().get(`/api/interrupts/${id}`).set('x-api-key', suite.key);
    expect(kept.body).toMatchObject({ priority: 'urgent', labels: ['billing', 'eu/west'] });
    const detail = await http()
      .get(`/api/interrupts/${id}?include=history`)
      .set('cookie', suite.owner.cookie);
    expect(detail.body).toMatchObject({ priority: 'urgent', labels: ['billing', 'eu/west'] });
    const listed = await http().get('/api/interrupts').set('cookie', suite.owner.cookie);
    expect(listed.body.interrupts.find((i: { id: string }) => i.id === id)).toMatchObject({
      priority: 'urgent',
      labels: ['billing', 'eu/west'],
    });
    const [entry] = await audit(id);
    expect(entry.metadata).toMatchObject({ priority: 'urgent', labels: ['billing', 'eu/west'] });
  });

  it.each([
    [{ memberId: 'grace' }, 'Grace Hopper', 'member'],
    [{ email: 'grace' }, 'Grace Hopper', 'member'],
    [{ teamId: 'team' }, 'Refunds desk', 'team'],
    [{ teamName: 'Refunds desk' }, 'Refunds desk', 'team'],
  ] as const)(
    'assignTo %j assigns it as it opens, audited as interrupt.assigned by the key',
    async (given, name, type) => {
      const grace = suite.managers['Grace Hopper'];
      // By email: trimmed, then compared case-insensitively (SPEC §8e).
      const assignTo: Record<string, string> =
        'memberId' in given
          ? { memberId: grace.memberId }
          : 'email' in given
            ? { email: ` \t${grace.email.toUpperCase()} ` }
            : 'teamId' in given
              ? { teamId }
              : { teamName: given.teamName };
      const created = await open({ assignTo });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const assigneeId = type === 'member' ? grace.memberId : teamId;
      expect(created.body.assignee).toEqual({ type, id: assigneeId, name });
      const entries = await audit(id);
      expect(entries.map((e) => e.action)).toEqual(['interrupt.created', 'interrupt.assigned']);
      expect(entries[1]).toMatchObject({
        actor_type: 'api_key',
        actor_name: 'billing-agent',
        metadata: {
          assigneeType: type,
          assigneeId,
          assigneeName: name,
          previousAssigneeType: null,
          previousAssigneeId: null,
          previousAssigneeName: null,
        },
      });
    },
  );

  it("tells a member assigned at creation as a member's assignment would", async () => {
    const alan = suite.managers['Alan Turing'];
    const created = await open({ title: 'Refund order 990', assignTo: { email: alan.email } });
    expect(created.status).toBe(201);
    await suite.sink.until(() =>
      suite.sink
        .to(alan.email)
        .some((m) => m.parsed.subject === '[Routing Works] Assigned to you: Refund order 990'),
    );
  });

  it.each([
    [{ memberId: '00000000-0000-4000-8000-000000000000' }, 'no such member'],
    [{ email: 'nobody@example.com' }, 'no such member'],
    [{ teamId: '00000000-0000-4000-8000-000000000000' }, 'no such team'],
    [{ teamName: 'Nobody here' }, 'no such team'],
  ])('assignTo %j answers 400 and opens nothing', async (assignTo, what) => {
    const before = await countOpened();
    const refused = await open({ assignTo });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `assignTo: ${what} in this organisation`,
    });
    expect(await countOpened()).toBe(before);
  });

  it.each([
    [{ priority: 'critical' }, 'priority must be one of low, normal, high, urgent'],
    [{ priority: null }, 'priority must be one of low, normal, high, urgent'],
    [{ assignTo: {} }, 'assignTo must have exactly one of memberId, email, teamId, teamName'],
    [
      { assignTo: { memberId: '00000000-0000-4000-8000-000000000000', teamName: 'x' } },
      'assignTo must have exactly one of memberId, email, teamId, teamName',
    ],
    [{ assignTo: { memberId: 'grace' } }, 'assignTo.memberId must be a UUID'],
    [{ assignTo: { email: 'grace' } }, 'assignTo.email must be an email address'],
    [{ assignTo: { email: 'grace @example.com' } }, 'assignTo.email must be an email address'],
    [{ assignTo: { email: '   ' } }, 'assignTo.email must be an email address'],
    [
      { assignTo: { name: 'Grace' } },
      'assignTo must have exactly one of memberId, email, teamId, teamName; property assignTo.name should not exist',
    ],
    [
      { labels: ['two words'] },
      'labels: each must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
    ],
    [
      { labels: [''] },
      'labels: each must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
    ],
    [
      { labels: ['x'.repeat(51)] },
      'labels: each must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
    ],
    [
      { labels: [7] },
      'labels: each must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
    ],
    [
      { labels: ['ünicode'] },
      'labels: each must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
    ],
    [
      { labels: Array.from({ length: 11 }, (_, n) => `l${n}`) },
      'labels must have at most 10 entries',
    ],
  ])('%j answers 400 with its reason', async (body, message) => {
    const refused = await open(body);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(refused.body.message).toBe(message);
  });

  it("lists by priority (?priority=high,urgent) and by label (?label=), the agent's labels or the classifier's", async () => {
    const tag = `filter-${Date.now()}`;
    const opened: Record<string, string> = {};
    for (const [name, body] of [
      ['low', { priority: 'low', labels: ['eu'] }],
      ['high', { priority: 'high', labels: ['billing', 'eu'] }],
      ['urgent', { priority: 'urgent' }],
      ['normal', { labels: ['billing'] }],
    ] as const) {
      const created = await open({ ...body, externalId: tag });
      expect(created.status).toBe(201);
      opened[name] = created.body.id;
    }
    // The classifier's labels count too (set as a classifier would have: risk_labels).
    await suite
      .db()
      .query(
        `UPDATE interrupts SET risk_labels = ARRAY['eu'] WHERE organisation_id = $1 AND id = $2`,
        [suite.owner.organisationId, opened.urgent],
      );
    const ids = async (query: string, limit?: number): Promise<string[]> => {
      const all: string[] = [];
      let cursor: string | null = null;
      do {
        const page: request.Response = await http()
          .get(
            `/api/interrupts?externalId=${tag}&${query}${limit ? `&limit=${limit}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          )
          .set('x-api-key', suite.key);
        expect(page.status).toBe(200);
        all.push(...page.body.interrupts.map((i: { id: string }) => i.id));
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      return all;
    };
    expect(await ids('priority=high,urgent')).toEqual([opened.urgent, opened.high]);
    expect(await ids('priority=high&priority=urgent', 1)).toEqual([opened.urgent, opened.high]);
    expect(await ids('priority=normal')).toEqual([opened.normal]);
    expect(await ids('label=billing')).toEqual([opened.normal, opened.high]);
    expect(await ids('label=eu', 1)).toEqual([opened.urgent, opened.high, opened.low]);
    expect(await ids('label=eu&priority=low,urgent')).toEqual([opened.urgent, opened.low]);
    expect(await ids('label=nothing-here')).toEqual([]);

    for (const [query, message] of [
      ['priority=critical', 'priority must be a comma-separated list of low, normal, high, urgent'],
      ['priority=', 'priority must be a comma-separated list of low, normal, high, urgent'],
      [
        'label=two%20words',
        'label must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
      ],
    ]) {
      const refused = await http().get(`/api/interrupts?${query}`).set('x-api-key', suite.key);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
  });

  it('a member with interrupt.assign changes the priority, audited interrupt.priority_changed; the same one writes nothing', async () => {
    const created = await open({ priority: 'low' });
    const id = created.body.id as string;
    const grace = suite.managers['Grace Hopper'];
    const set = (priority: unknown, cookie = grace.cookie) =>
      http().post(`/api/interrupts/${id}/priority`).set('cookie', cookie).send({ priority });

    const raised = await set('urgent');
    expect(raised.status).toBe(200);
    expect(raised.body.priority).toBe('urgent');
    // The agent's read (the record kept with the row) sees it.
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', suite.key);
    expect(read.body.priority).toBe('urgent');
    expect((await set('urgent')).status).toBe(200);
    const entries = (await audit(id)).filter((e) => e.action === 'interrupt.priority_changed');
    expect(entries).toEqual([
      expect.objectContaining({
        actor_type: 'member',
        actor_name: 'Grace Hopper',
        metadata: { from: 'low', to: 'urgent' },
      }),
    ]);

    const bad = await set('critical');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('priority must be one of low, normal, high, urgent');
    const byKey = await http()
      .post(`/api/interrupts/${id}/priority`)
      .set('x-api-key', suite.key)
      .send({ priority: 'high' });
    expect(byKey.status).toBe(403);

    const withdrawn = await http()
      .post(`/api/interrupts/${id}/cancel`)
      .set('x-api-key', suite.key)
      .send({});
    expect(withdrawn.status).toBe(200);
    const late = await set('low');
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This interrupt is no longer open: it is withdrawn.');
  });

  it("an enforced argus route's priority replaces the agent's, audited by argus; its receipt says so", async () => {
    const bad = await http()
      .post('/api/classification/rules')
      .set('cookie', suite.owner.cookie)
      .send({
        name: 'Bad priority',
        mode: 'enforce',
        match: { actions: ['wire-transfer'] },
        outcome: { type: 'route', priority: 'critical' },
      });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('outcome.priority: must be one of low, normal, high, urgent');
    const rule = await http()
      .post('/api/classification/rules')
      .set('cookie', suite.owner.cookie)
      .send({
        name: 'Wire transfers are urgent',
        mode: 'enforce',
        match: { actions: ['wire-transfer'] },
        outcome: { type: 'route', priority: 'urgent' },
      });
    expect(rule.status).toBe(201);
    const created = await open({ priority: 'low', actionRequests: [{ name: 'wire-transfer' }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', priority: 'urgent' });
    const entries = await audit(created.body.id);
    expect(entries.find((e) => e.action === 'classification.applied')?.metadata).toMatchObject({
      outcome: 'route',
      priority: 'urgent',
      enforced: true,
    });
    expect(entries.find((e) => e.action === 'interrupt.priority_changed')).toMatchObject({
      actor_type: 'argus',
      metadata: { from: 'low', to: 'urgent' },
    });
    const read = await http().get(`/api/interrupts/${created.body.id}`).set('x-api-key', suite.key);
    expect(read.body.priority).toBe('urgent');
    // Other actions are not routed by it.
    expect((await open({ priority: 'low' })).body.priority).toBe('low');
  });
});
