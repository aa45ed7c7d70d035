import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  setPlan,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 14: each interrupt keeps its record as the API renders it (`record_json`, migration
// 1795410000000), and a read without include answers that text as it is. These hold it to the
// bytes the columns render, after every change the service makes, and hold the database to
// clearing it after every change that does not set it.
describe('the interrupt record kept with the row', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let manager: { cookie: string; memberId: string };
  let db: DataSource;

  const http = () => request(t.app.getHttpServer());
  const readText = async (id: string) => {
    const res = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.text;
  };
  const kept = async (id: string): Promise<string | null> =>
    (
      await db.query(`SELECT record_json FROM interrupts WHERE organisation_id = $1 AND id = $2`, [
        owner.organisationId,
        id,
      ])
    )[0].record_json;

  /**
   * The answer from the kept record, the answer from the columns (the record cleared), and the
   * change's own answer must be the same bytes; then the record is kept again by the next change.
   */
  async function expectKeptAsRendered(id: string, changeAnswer: string): Promise<void> {
    const record = await kept(id);
    expect(record).not.toBeNull();
    expect(record).toBe(changeAnswer);
    expect(await readText(id)).toBe(record);
    await db.query(
      `UPDATE interrupts SET record_json = NULL WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, id],
    );
    expect(await readText(id)).toBe(record);
    // A read does not write: the record stays cleared until the next change keeps it.
    expect(await kept(id)).toBeNull();
  }

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
    const server = t.app.getHttpServer();
    owner = await signUpOwner(server, { name: 'Ada Lovelace' });
    ({ key } = await createApiKey(server, owner.cookie, { name: 'poller' }));
    const roles = await builtInRoleIds(server, owner.cookie);
    manager = await joinOrganisation(server, owner.cookie, roles.manager, 'Mary Manager');
  });
  afterAll(async () => {
    await t.close();
  });

  it('is the answer of every change — open, decide, assign, unassign, escalate, answer — byte for byte as the columns render it', async () => {
    // Arguments jsonb stores in its own key order, with digits JSON.stringify writes otherwise,
    // keys that look like array indexes, and text that needs escaping: the record is rendered from
    // the row as stored, as every read renders it, not from the request.
    const opened = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({
        title: 'Ship "v2" \u2028 ✓',
        description: 'line\nbreak',
        externalId: 'run-7',
        metadata: {
          zeta: 1.0,
          alpha: [1e2, -0, 1e21, 0.1],
          '10': 'ten',
          '9': 'nine',
          nested: { b: null, a: '\u0001' },
        },
        actionRequests: [
          {
            name: 'deploy',
            args: { version: '2.0.0', a: { y: 2.5, x: 1 } },
            description: 'Roll out',
          },
          { name: 'notify', allowedDecisions: ['approve', 'respond'] },
        ],
      });
    expect(opened.status).toBe(201);
    const id = opened.body.id as string;
    await expectKeptAsRendered(id, opened.text);

    const decide = (actionName: string, body: Record<string, unknown>) =>
      http()
        .post(`/api/interrupts/${id}/decisions`)
        .set('cookie', owner.cookie)
        .send({ actionName, ...body });
    const first = await decide('deploy', {
      decision: 'edit',
      editedArgs: { version: '2.0.1', b: 3.0 },
      message: 'patched',
    });
    expect(first.status).toBe(201);
    await expectKeptAsRendered(id, first.text);

    const toMember = await http()
      .post(`/api/interrupts/${id}/assign`)
      .set('cookie', owner.cookie)
      .send({ memberId: manager.memberId });
    expect(toMember.status).toBe(200);
    await expectKeptAsRendered(id, toMember.text);

    const team = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Platform' });
    const toTeam = await http()
      .post(`/api/interrupts/${id}/assign`)
      .set('cookie', manager.cookie)
      .send({ teamId: team.body.id });
    expect(toTeam.status).toBe(200);
    await expectKeptAsRendered(id, toTeam.text);

    const unassigned = await http()
      .post(`/api/interrupts/${id}/assign`)
      .set('cookie', owner.cookie)
      .send({ memberId: null });
    expect(unassigned.status).toBe(200);
    await expectKeptAsRendered(id, unassigned.text);

    const escalated = await http()
      .post(`/api/interrupts/${id}/escalate`)
      .set('cookie', owner.cookie)
      .send({ reason: 'waited "long"' });
    expect(escalated.status).toBe(200);
    await expectKeptAsRendered(id, escalated.text);

    const last = await decide('notify', { decision: 'respond', message: 'done' });
    expect(last.status).toBe(201);
    expect(last.body.status).toBe('answered');
    await expectKeptAsRendered(id, last.text);
  });

  it('is cleared by the database after any change that does not keep it: an update of the row, a decision written directly', async () => {
    const opened = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Rotate keys', actionRequests: [{ name: 'rotate' }, { name: 'announce' }] });
    const id = opened.body.id as string;
    expect(await kept(id)).toBe(opened.text);

    await db.query(
      `UPDATE interrupts SET title = 'Rotate all keys' WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, id],
    );
    expect(await kept(id)).toBeNull();
    const renamed = JSON.parse(await readText(id)) as { title: string };
    expect(renamed.title).toBe('Rotate all keys');

    // Kept again by the next change; then a decision written outside the service clears it.
    const escalated = await http()
      .post(`/api/interrupts/${id}/escalate`)
      .set('cookie', owner.cookie)
      .send({});
    expect(await kept(id)).toBe(escalated.text);
    await db.query(
      `INSERT INTO interrupt_decisions (organisation_id, id, interrupt_id, action_name, decision, decided_by_id, decided_by_name)
       VALUES ($1, gen_random_uuid(), $2, 'rotate', 'approve', $3, 'Ada Lovelace')`,
      [owner.organisationId, id, owner.memberId],
    );
    expect(await kept(id)).toBeNull();
    const decided = JSON.parse(await readText(id)) as { decisions: { actionName: string }[] };
    expect(decided.decisions.map((d) => d.actionName)).toEqual(['rotate']);

    // Removing a decision clears it too.
    const answered = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'announce', decision: 'approve' });
    expect(await kept(id)).toBe(answered.text);
    await db.query(
      `DELETE FROM interrupt_decisions WHERE organisation_id = $1 AND interrupt_id = $2 AND action_name = 'rotate'`,
      [owner.organisationId, id],
    );
    expect(await kept(id)).toBeNull();
    const removed = JSON.parse(await readText(id)) as { decisions: { actionName: string }[] };
    expect(removed.decisions.map((d) => d.actionName)).toEqual(['announce']);
  });

  // Issue 28 item 4: the inbox listing answers each kept record as it is, as the read does.
  it('the inbox listing answers each interrupt byte for byte as its read does: kept, cleared, or kept by another renderer', async () => {
    const ids: string[] = [];
    for (const title of ['Listed "one" ✓', 'Listed two', 'Listed three']) {
      const opened = await http()
        .post('/api/interrupts')
        .set('x-api-key', key)
        .send({
          title,
          externalId: 'listing',
          metadata: { zeta: 1.0, '10': 'ten', nested: { b: null, a: '\u0001' } },
          actionRequests: [{ name: 'deploy', args: { version: '2.0.0', a: { y: 2.5, x: 1 } } }],
        });
      expect(opened.status).toBe(201);
      ids.push(opened.body.id as string);
    }
    const decided = await http()
      .post(`/api/interrupts/${ids[0]}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'deploy', decision: 'edit', editedArgs: { version: '2.0.1' } });
    expect(decided.status).toBe(201);
    // The second read from its columns; the third's record kept by an older renderer, which the
    // listing must not answer.
    await db.query(
      `UPDATE interrupts SET record_json = NULL WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, ids[1]],
    );
    await db.query(
      `UPDATE interrupts SET record_json = '{"stale":true}', record_version = record_version - 1
        WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, ids[2]],
    );
    expect(await kept(ids[0])).not.toBeNull();
    expect(await kept(ids[1])).toBeNull();
    expect(await kept(ids[2])).toBe('{"stale":true}');
    const reads = await Promise.all(ids.map(readText));
    expect(reads[2]).not.toContain('stale');

    const first = await http()
      .get('/api/interrupts?externalId=listing&limit=2')
      .set('x-api-key', key);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const nextCursor = first.body.nextCursor as string;
    expect(typeof nextCursor).toBe('string');
    expect(first.text).toBe(
      `{"interrupts":[${reads[2]},${reads[1]}],"nextCursor":${JSON.stringify(nextCursor)}}`,
    );
    const rest = await http()
      .get(`/api/interrupts?externalId=listing&limit=2&cursor=${encodeURIComponent(nextCursor)}`)
      .set('x-api-key', key);
    expect(rest.text).toBe(`{"interrupts":[${reads[0]}],"nextCursor":null}`);
    // A listing with its title search reads whole rows: the same bytes.
    const searched = await http()
      .get('/api/interrupts?externalId=listing&q=listed')
      .set('x-api-key', key);
    expect(searched.text).toBe(
      `{"interrupts":[${reads[2]},${reads[1]},${reads[0]}],"nextCursor":null}`,
    );
  });

  it('with include, the read renders from the columns as before; another organisation still gets 404', async () => {
    // History is audit entries: a key reads it on Pro (issue 34, item 8).
    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    const opened = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Audit me', actionRequests: [{ name: 'go' }] });
    const id = opened.body.id as string;
    const withHistory = await http()
      .get(`/api/interrupts/${id}?include=history`)
      .set('x-api-key', key);
    expect(withHistory.status).toBe(200);
    expect(withHistory.body.history.map((h: { action: string }) => h.action)).toEqual([
      'interrupt.created',
    ]);
    const { history, ...record } = withHistory.body as Record<string, unknown>;
    expect(history).toBeDefined();
    expect(record).toEqual(JSON.parse(opened.text));

    const stranger = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Engines',
    });
    const { key: strangerKey } = await createApiKey(t.app.getHttpServer(), stranger.cookie);
    const foreign = await http().get(`/api/interrupts/${id}`).set('x-api-key', strangerKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
  });
});
