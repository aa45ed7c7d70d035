import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { declaredRoutes } from '../src/auth/route-declarations.util';
import { signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 10, defect 5: `PATCH /api/roles/{id}` with no body answered 200 (every field of the
// update was optional). A PATCH or PUT that changes nothing is a client mistake: 400.
describe('PATCH and PUT refuse a body that changes nothing', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
  });
  afterAll(async () => {
    await t.close();
  });

  it('every PATCH and PUT route: no body, {} and null → 400 VALIDATION_FAILED', async () => {
    const routes = declaredRoutes(t.app).filter((r) => r.method === 'PATCH' || r.method === 'PUT');
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['PATCH /api/roles/:id', 'PUT /api/organisation/plan']),
    );
    const answers: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:\w+/g, randomUUID());
      const send = (body?: string) => {
        const req = http()
          [route.method.toLowerCase() as 'patch' | 'put'](path)
          .set('cookie', owner.cookie);
        return body === undefined ? req : req.set('content-type', 'application/json').send(body);
      };
      for (const [label, body] of [
        ['no body', undefined],
        ['{}', '{}'],
        ['null', 'null'],
      ] as const) {
        const res = await send(body);
        answers.push(`${route.method} ${route.path} ${label}: ${res.status} ${res.body.code}`);
      }
    }
    expect(answers.filter((a) => !a.endsWith(': 400 VALIDATION_FAILED'))).toEqual([]);
  });

  it('PATCH /api/roles/{id} with no body → 400 naming what it needs, and the role is unchanged', async () => {
    const role = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Reviewers', permissions: ['interrupt.read'] })
      .expect(201);
    const res = await http().patch(`/api/roles/${role.body.id}`).set('cookie', owner.cookie);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'body: must hold at least one of name, permissions.',
    });
    const after = await http().get('/api/roles').set('cookie', owner.cookie).expect(200);
    expect(after.body.roles.find((r: { id: string }) => r.id === role.body.id)).toEqual(role.body);
    // Either field alone still works.
    await http()
      .patch(`/api/roles/${role.body.id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'Triage' })
      .expect(200);
    await http()
      .patch(`/api/roles/${role.body.id}`)
      .set('cookie', owner.cookie)
      .send({ permissions: [] })
      .expect(200);
  });
});
