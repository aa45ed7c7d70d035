import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('Idempotency-Key (issue 5, beyond the seed)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  let otherKey: string;

  const http = () => request(t.app.getHttpServer());
  const body = {
    title: 'Deploy to prod',
    actionRequests: [{ name: 'deploy', args: { version: '1.4.2' } }],
  };
  const count = async (sql: string, params: unknown[]) =>
    ((await t.app.get(DataSource).query(sql, params)) as { n: number }[])[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
    const other = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Other' });
    otherKey = (await createApiKey(t.app.getHttpServer(), other.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('100 concurrent POSTs with one key: one interrupt, one audit entry, one count, 100 identical responses', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        http()
          .post('/api/interrupts')
          .set('x-api-key', key)
          .set('idempotency-key', 'deploy-1')
          .send(body),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(99);
    const id = results[0].body.id;
    expect(
      await count(`SELECT count(*)::int AS n FROM interrupts WHERE organisation_id = $1`, [
        owner.organisationId,
      ]),
    ).toBe(1);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log_entries WHERE target_id = $1`, [id]),
    ).toBe(1);
    expect(
      await count(`SELECT messages AS n FROM usage_months WHERE organisation_id = $1`, [
        owner.organisationId,
      ]),
    ).toBe(1);
    expect(
      await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE organisation_id = $1`, [
        owner.organisationId,
      ]),
    ).toBe(1);

    // Later, in any key order: the same first response.
    const later = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('idempotency-key', 'deploy-1')
      .send({
        actionRequests: [{ args: { version: '1.4.2' }, name: 'deploy' }],
        title: 'Deploy to prod',
      });
    expect(later.status).toBe(201);
    expect(later.text).toBe(results[0].text);
  });

  it('the same key with a different body, or on another endpoint, answers 409', async () => {
    const first = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('idempotency-key', 'k-2')
      .send(body);
    expect(first.status).toBe(201);
    const changed = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('idempotency-key', 'k-2')
      .send({ ...body, title: 'Deploy to staging' });
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({
      code: 'CONFLICT',
      message: 'This Idempotency-Key was already used with a different request.',
    });
    const elsewhere = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .set('idempotency-key', 'k-2')
      .send({ name: 'n' });
    expect(elsewhere.status).toBe(409);
    // Keys are per organisation.
    expect(
      (
        await http()
          .post('/api/interrupts')
          .set('x-api-key', otherKey)
          .set('idempotency-key', 'k-2')
          .send(body)
      ).status,
    ).toBe(201);
  });

  it('a refused request stores nothing: the key can be retried, and then it succeeds', async () => {
    const missing = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('idempotency-key', 'k-3')
      .send({ ...body, sessionId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    const session = await http().post('/api/sessions').set('x-api-key', key).send({ name: 's' });
    const ok = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('idempotency-key', 'k-3')
      .send({ ...body, sessionId: session.body.id });
    expect(ok.status).toBe(201);
  });

  it('session starts and message appends replay without a second write', async () => {
    const start = () =>
      http()
        .post('/api/sessions')
        .set('x-api-key', key)
        .set('idempotency-key', 'session-1')
        .send({ name: 'nightly' });
    const a = await start();
    const b = await start();
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.text).toBe(a.text);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(
      await count(
        `SELECT count(*)::int AS n FROM sessions WHERE organisation_id = $1 AND name = 'nightly'`,
        [owner.organisationId],
      ),
    ).toBe(1);

    const messages = {
      messages: [
        { role: 'agent', content: 'one' },
        { role: 'agent', content: 'two' },
      ],
    };
    const appends = await Promise.all(
      Array.from({ length: 10 }, () =>
        http()
          .post(`/api/sessions/${a.body.id}/messages`)
          .set('x-api-key', key)
          .set('idempotency-key', 'batch-1')
          .send(messages),
      ),
    );
    expect(appends.map((r) => [r.status, r.text])).toEqual(Array(10).fill([201, '{"appended":2}']));
    expect(await count(`SELECT message_count AS n FROM sessions WHERE id = $1`, [a.body.id])).toBe(
      2,
    );
    // Same body to another session: another request.
    const { body: s2 } = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 'other' });
    expect(
      (
        await http()
          .post(`/api/sessions/${s2.id}/messages`)
          .set('x-api-key', key)
          .set('idempotency-key', 'batch-1')
          .send(messages)
      ).status,
    ).toBe(409);
  });

  it('a key is remembered for 24 hours, then it is a new request', async () => {
    const first = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('idempotency-key', 'k-old')
      .send(body);
    await t.app
      .get(DataSource)
      .query(
        `UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE organisation_id = $1 AND key = 'k-old'`,
        [owner.organisationId],
      );
    const again = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('idempotency-key', 'k-old')
      .send(body);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key with 400 naming the header', async () => {
    for (const value of ['x'.repeat(256), 'has space', 'tab\there']) {
      const res = await http()
        .post('/api/interrupts')
        .set('x-api-key', key)
        .set('idempotency-key', value)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Idempotency-Key');
    }
  });
});
