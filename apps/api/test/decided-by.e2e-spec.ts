import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// SPEC §5: a decision's `decidedBy` is a tagged union on `type` — a member (`{type, id, name}`,
// what it always was plus `type`), argus (`{type, ruleId, name: "argus"}`) or the service
// (`{type, reason, name: "system"}`). The argus and system rows are written here as the
// classifier and the deadline job write them; the database refuses a row that names no decider.
describe('who decided (decidedBy)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let db: DataSource;
  const http = () => request(t.app.getHttpServer());
  const open = async (title: string, actions: string[]) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, actionRequests: actions.map((name) => ({ name })) });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const insertDecision = (id: string, action: string, columns: Record<string, string | null>) => {
    const names = Object.keys(columns);
    return db.query(
      `INSERT INTO interrupt_decisions (organisation_id, id, interrupt_id, action_name, decision, ${names.join(', ')})
       VALUES ($1, gen_random_uuid(), $2, $3, 'approve', ${names.map((_, i) => `$${i + 4}`).join(', ')})`,
      [owner.organisationId, id, action, ...Object.values(columns)],
    );
  };

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'agent' }));
  });
  afterAll(async () => {
    await t.close();
  });

  it("a member's decision renders as before, with type member first — in the decision's answer, the read and the listing", async () => {
    const id = await open('Deploy', ['deploy']);
    const decided = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'deploy', decision: 'approve' });
    expect(decided.status).toBe(201);
    const exact = `"decidedBy":{"type":"member","id":"${owner.memberId}","name":"Ada Lovelace"}`;
    expect(decided.text).toContain(exact);
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(read.text).toContain(exact);
    const listed = await http().get('/api/interrupts?status=answered').set('x-api-key', key);
    expect(listed.text).toContain(exact);
    expect(read.body.decisions[0].decidedBy).toEqual({
      type: 'member',
      id: owner.memberId,
      name: 'Ada Lovelace',
    });
  });

  it('argus and system decisions render as their variants, and answer the interrupt like any other', async () => {
    const id = await open('Refund', ['refund', 'notify', 'close']);
    const ruleId = '7d0c2f52-93a3-4d55-9e4b-7c2b3f1a0e11';
    await insertDecision(id, 'refund', {
      decided_by_type: 'argus',
      decided_by_name: 'argus',
      decided_by_rule_id: ruleId,
    });
    await insertDecision(id, 'notify', {
      decided_by_type: 'system',
      decided_by_name: 'system',
      decided_by_reason: 'timeout',
    });
    const last = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'close', decision: 'approve' });
    expect(last.status).toBe(201);
    expect(last.body.status).toBe('answered');
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(
      read.body.decisions.map((d: { actionName: string; decidedBy: unknown }) => [
        d.actionName,
        d.decidedBy,
      ]),
    ).toEqual([
      ['refund', { type: 'argus', ruleId, name: 'argus' }],
      ['notify', { type: 'system', reason: 'timeout', name: 'system' }],
      ['close', { type: 'member', id: owner.memberId, name: 'Ada Lovelace' }],
    ]);
    expect(read.text).toContain(`"decidedBy":{"type":"argus","ruleId":"${ruleId}","name":"argus"}`);
    expect(read.text).toContain(`"decidedBy":{"type":"system","reason":"timeout","name":"system"}`);
  });

  it('the database refuses a decision that does not name its decider', async () => {
    const id = await open('Broken', ['a', 'b', 'c', 'd']);
    const refused = async (action: string, columns: Record<string, string | null>) => {
      await expect(insertDecision(id, action, columns)).rejects.toThrow(
        /interrupt_decisions_decided_by_check/,
      );
    };
    await refused('a', {
      decided_by_type: 'member',
      decided_by_name: 'Nobody',
      decided_by_id: null,
    });
    await refused('b', { decided_by_type: 'argus', decided_by_name: 'argus' });
    await refused('c', { decided_by_type: 'system', decided_by_name: 'system' });
    await refused('d', {
      decided_by_type: 'robot',
      decided_by_name: 'robot',
      decided_by_id: owner.memberId,
    });
  });

  it('a record kept by an older renderer is rendered again, never answered in the old shape', async () => {
    const id = await open('Old record', ['go']);
    const decided = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'go', decision: 'approve' });
    // The record as the previous release kept it: decidedBy without its type, and no version.
    const old = decided.text.replace(`"decidedBy":{"type":"member",`, `"decidedBy":{`);
    expect(old).not.toBe(decided.text);
    await db.query(
      `UPDATE interrupts SET record_json = $3, record_version = NULL WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, id, old],
    );
    expect((await http().get(`/api/interrupts/${id}`).set('x-api-key', key)).text).toBe(
      decided.text,
    );
    await db.query(
      `UPDATE interrupts SET record_json = $3, record_version = 1 WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, id, old],
    );
    expect((await http().get(`/api/interrupts/${id}`).set('x-api-key', key)).text).toBe(
      decided.text,
    );
  });
});
