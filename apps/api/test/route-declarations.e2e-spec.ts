import request from 'supertest';
import { DataSource } from 'typeorm';
import { declaredRoutes, isHumanOnly } from '../src/auth/route-declarations.util';
import { createApiKey, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// What the routes declare is snapshotted by a unit test (src/auth/route-declarations.spec.ts);
// here, on the real app and database, that a human-only route refuses every key.
describe('route declarations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('every human-only route answers 403 to a key, valid or not, and changes nothing', async () => {
    const server = t.app.getHttpServer();
    const owner = await signUpOwner(server);
    const { key } = await createApiKey(server, owner.cookie);
    const ds = t.app.get(DataSource);
    const fingerprint = async () =>
      JSON.stringify(
        await ds.query(
          `SELECT (SELECT count(*) FROM organisations) o, (SELECT count(*) FROM memberships) m, (SELECT count(*) FROM roles) r,
                  (SELECT count(*) FROM api_keys) k, (SELECT count(*) FROM users) u, (SELECT count(*) FROM teams) t, (SELECT count(*) FROM invitations) i,
                  (SELECT count(*) FROM sign_in_sessions) s, (SELECT count(*) FROM audit_log_entries) a,
                  (SELECT string_agg(plan, ',' ORDER BY id) FROM organisations) p`,
        ),
      );
    const before = await fingerprint();
    const human = declaredRoutes(t.app).filter(isHumanOnly);
    expect(human.length).toBeGreaterThan(10);
    for (const route of human) {
      const path = route.path.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000');
      for (const value of [key, 'not-a-key']) {
        const method = route.method.toLowerCase() as 'get';
        const res = await request(server)
          [method](path)
          .set('x-api-key', value)
          .set('cookie', owner.cookie)
          .send(
            route.method === 'GET'
              ? undefined
              : { name: 'x', plan: 'pro', email: 'a@b.c', password: 'password123' },
          );
        expect({
          route: `${route.method} ${route.path}`,
          status: res.status,
          body: res.body,
        }).toMatchObject({
          status: 403,
          body: { code: 'HUMANS_ONLY', message: 'This endpoint is reserved for humans.' },
        });
      }
    }
    expect(await fingerprint()).toBe(before);
  });
});
