import request from 'supertest';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Answers that changed so the service and its contract agree exactly (issue 10; the contract
// test in npm test checks them all, these pin them down).
describe('answers the contract states', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a method a path does not serve: 405 with Allow, before authentication; an unknown path stays 404', async () => {
    const cases: [string, string, string][] = [
      ['delete', '/api/whoami', 'GET'],
      ['put', '/api/interrupts', 'GET, POST'],
      ['delete', '/api/interrupts/counts', 'GET'],
      ['patch', '/api/interrupts/0b8f6b8e-1111-4a4a-9c9c-123456789abc', 'GET'],
      ['post', '/api/roles/0b8f6b8e-1111-4a4a-9c9c-123456789abc', 'DELETE, PATCH'],
      // A UUID-only `:id` (DELETE /api/me/sessions/:id) never takes its literal sibling.
      ['options', '/api/me/sessions/revoke-others', 'POST'],
      ['delete', '/api/me/sessions/revoke-others', 'POST'],
      ['post', '/api/me/sessions/0b8f6b8e-1111-4a4a-9c9c-123456789abc', 'DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await http()[method as 'delete'](path);
      expect({
        path,
        method,
        status: res.status,
        allow: res.headers.allow,
        code: res.body.code,
      }).toEqual({
        path,
        method,
        status: 405,
        allow,
        code: 'METHOD_NOT_ALLOWED',
      });
    }
    expect((await http().delete('/api/no-such-thing')).status).toBe(404);
    expect((await http().head('/api/whoami').set('x-api-key', key)).status).toBe(200);
    expect((await http().get('/api/whoami').set('x-api-key', key)).status).toBe(200);
  });

  it('null for an optional field is refused like any wrong type (PATCH /api/roles with permissions null was a 500)', async () => {
    const role = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Nullable', permissions: [] })
      .expect(201);
    const res = await http()
      .patch(`/api/roles/${role.body.id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'Renamed', permissions: null });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('permissions');
    const interrupt = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 't', actionRequests: [{ name: 'a' }], description: null });
    expect(interrupt.status).toBe(400);
    expect(interrupt.body.message).toContain('description');
    // sessionId: null is the contract's "no session".
    await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 't', actionRequests: [{ name: 'a' }], sessionId: null })
      .expect(201);
  });

  it('a key asking for interrupts assigned to me or my teams gets none (a key is no member)', async () => {
    for (const assignee of ['me', 'my_teams']) {
      const res = await http().get('/api/interrupts').query({ assignee }).set('x-api-key', key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ interrupts: [], nextCursor: null });
    }
  });
});
