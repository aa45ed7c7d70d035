import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  createApiKey,
  setPlan,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Inputs found in review to slip past validation or end in a 500: each is a 400 naming the
// parameter, and writes nothing.
describe('input the database cannot take', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());
  const count = async (table: string) =>
    Number(
      (
        await t.app
          .get(DataSource)
          .query(`SELECT count(*) AS n FROM ${table} WHERE organisation_id = $1`, [
            owner.organisationId,
          ])
      )[0].n,
    );

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    [{ title: 't', actionRequests: [[]] }, 'actionRequests'],
    [{ title: 't', actionRequests: [[{ name: 'a' }], { name: 'b' }] }, 'actionRequests'],
  ])('an array where an action request belongs → 400 (%j)', async (body, field) => {
    const res = await http().post('/api/interrupts').set('x-api-key', key).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect(await count('interrupts')).toBe(0);
  });

  it('an array where a message belongs → 400', async () => {
    const session = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 's' })
      .expect(201);
    const res = await http()
      .post(`/api/sessions/${session.body.id}/messages`)
      .set('x-api-key', key)
      .send({ messages: [[{ role: 'agent', content: 'x' }]] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('messages');
  });

  it('JSON nested 5,000 deep → 400, not a stack overflow', async () => {
    const body = `{"title":"t","actionRequests":[{"name":"a","args":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}]}`;
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'body: is nested deeper than 64 levels',
    });
  });

  it('a lone surrogate → 400 naming the field', async () => {
    const body = '{"title":"t","actionRequests":[{"name":"a"}],"externalId":"\\ud800"}';
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .set('content-type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'body.externalId: contains a lone UTF-16 surrogate (not well-formed Unicode)',
    );
    expect(await count('interrupts')).toBe(0);
  });

  it('a __proto__ key at any depth → 400 naming it; nothing written, no prototype touched (issue 17, item 7)', async () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const [interruptsBefore, sessionsBefore] = [await count('interrupts'), await count('sessions')];
    const json = (req: request.Test, body: string) =>
      req.set('x-api-key', key).set('content-type', 'application/json').send(body);
    const cases: [request.Test, string, string][] = [
      [
        http().post('/api/interrupts'),
        '{"__proto__":{"polluted":true},"title":"t","actionRequests":[{"name":"a"}]}',
        'body.__proto__',
      ],
      [
        http().post('/api/interrupts'),
        '{"title":"t","actionRequests":[{"name":"a","args":{"deep":{"__proto__":{"polluted":true}}}}]}',
        'body.actionRequests.0.args.deep.__proto__',
      ],
      [
        http().post('/api/sessions'),
        '{"name":"s","metadata":{"__proto__":{"isAdmin":true}}}',
        'body.metadata.__proto__',
      ],
    ];
    for (const [req, body, path] of cases) {
      const res = await json(req, body);
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: `${path}: is not allowed as a field name` },
      });
    }
    const query = await http().get('/api/interrupts?__proto__=x').set('x-api-key', key);
    expect(query.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'query.__proto__: is not allowed as a field name',
    });
    expect([await count('interrupts'), await count('sessions')]).toEqual([
      interruptsBefore,
      sessionsBefore,
    ]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('a NUL in a query parameter → 400 naming it', async () => {
    const res = await http().get('/api/interrupts?externalId=a%00b').set('x-api-key', key);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'query.externalId: contains the NUL character (U+0000), which cannot be stored',
    );
  });

  it('year 0000 in the audit log filter → 400 naming it', async () => {
    for (const from of ['0000-01-01', '0000-02-29T00:00:00Z']) {
      const res = await http().get('/api/audit-log').query({ from }).set('x-api-key', key);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^from: /);
    }
    expect(
      (await http().get('/api/audit-log').query({ from: '0001-01-01' }).set('x-api-key', key))
        .status,
    ).toBe(200);
  });

  it('concurrent sign-ups with one email: one 201, the rest 409, and no secret in the logs', async () => {
    const email = uniqueEmail('race');
    const body = { email, password: 'race password 123', name: 'Racer', organisationName: 'Race' };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => http().post('/api/auth/sign-up').send(body)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const [member] = await t.app
      .get(DataSource)
      .query(`SELECT password_hash FROM users WHERE email = $1`, [email]);
    const logs = JSON.stringify(t.logs);
    expect(logs).not.toContain(member.password_hash);
    expect(logs).not.toContain('race password 123');
  });

  it('an invitation token in a differently cased path is still redacted in the logs', async () => {
    const token = 'A'.repeat(43);
    await http()
      .post(`/API/Invitations/${token}/accept`)
      .send({ name: 'x', password: 'password123' });
    expect(JSON.stringify(t.logs)).not.toContain(token);
  });

  it('keeps the SPEC §4 check order: key and humans-only first, then 415 and input checks', async () => {
    const text = (req: request.Test) => req.set('content-type', 'text/plain').send('hello');
    expect((await text(http().post('/api/interrupts'))).body.code).toBe('MISSING_API_KEY');
    expect((await text(http().post('/api/interrupts').set('x-api-key', 'nope'))).body.code).toBe(
      'INVALID_API_KEY',
    );
    const unsupported = await text(http().post('/api/interrupts').set('x-api-key', key));
    expect(unsupported.status).toBe(415);
    expect(unsupported.body).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Request body must be application/json.',
    });
    expect((await text(http().post('/api/api-keys').set('x-api-key', key))).body.code).toBe(
      'HUMANS_ONLY',
    );
    expect((await http().get('/api/interrupts?externalId=a%00b')).body.code).toBe(
      'MISSING_API_KEY',
    );
    const deep = `{"title":"t","actionRequests":[{"name":"a","args":${'['.repeat(100)}${']'.repeat(100)}}]}`;
    expect(
      (await http().post('/api/interrupts').set('content-type', 'application/json').send(deep)).body
        .code,
    ).toBe('MISSING_API_KEY');
  });

  it('treats sessionId: null as no session', async () => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'n', actionRequests: [{ name: 'a' }], sessionId: null });
    expect(res.status).toBe(201);
    expect(res.body.sessionId).toBeNull();
  });

  it('a JSON null as the body → 400, even where the body itself is optional (escalate)', async () => {
    const opened = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Null body', actionRequests: [{ name: 'a', args: {} }] });
    expect(opened.status).toBe(201);
    for (const path of [
      `/api/interrupts/${opened.body.id}/escalate`,
      `/api/interrupts/${opened.body.id}/assign`,
    ]) {
      const res = await http()
        .post(path)
        .set('cookie', owner.cookie)
        .set('content-type', 'application/json')
        .send('null');
      expect({ path, status: res.status, message: res.body.message }).toEqual({
        path,
        status: 400,
        message: 'body: must be a JSON object.',
      });
    }
    // Without a body at all, escalating is fine: the reason is optional.
    expect(
      (await http().post(`/api/interrupts/${opened.body.id}/escalate`).set('cookie', owner.cookie))
        .status,
    ).toBe(200);
  });
});
