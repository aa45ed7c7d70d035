import request from 'supertest';
import {
  builtInRoleIds,
  joinOrganisation,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 34, item 5: human write routes had no limit, and an anonymous sign-up is an Owner: one
// account could send a webhook test (an outbound POST each), create organisations, invite and
// create roles without end. Each person now has a budget of writes, and a smaller one for each
// costly write, answered past it with the keys' 429 (SPEC §8b).
describe('per-member budgets on human write routes', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  const http = () => request(t.app.getHttpServer());
  const RATE_LIMITED = {
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: 'Too many requests. Try again later.',
  };

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        RATE_LIMIT_MEMBER_WRITES: '20',
        RATE_LIMIT_MEMBER_WRITES_WINDOW_SECONDS: '60',
        RATE_LIMIT_MEMBER_COSTLY_WRITES: '2',
        RATE_LIMIT_MEMBER_COSTLY_WRITES_WINDOW_SECONDS: '3600',
      },
    });
    owner = await signUpOwner(t.app.getHttpServer());
  });
  afterAll(async () => {
    await t.close();
  });

  function expectRateLimited(res: request.Response, maxSeconds: number): void {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject(RATE_LIMITED);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  }

  it('each costly write has its own budget per person: roles, invitations, webhook tests, organisations', async () => {
    const person = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Costly' });
    const roleId = (await builtInRoleIds(t.app.getHttpServer(), person.cookie)).manager;
    const roles = [];
    for (let i = 0; i < 3; i++)
      roles.push(
        await http()
          .post('/api/roles')
          .set('cookie', person.cookie)
          .send({ name: `role-${i}`, permissions: ['interrupt.read'] }),
      );
    expect(roles.slice(0, 2).map((r) => r.status)).toEqual([201, 201]);
    expectRateLimited(roles[2], 3600);

    const invitations = [];
    for (let i = 0; i < 3; i++)
      invitations.push(
        await http()
          .post('/api/invitations')
          .set('cookie', person.cookie)
          .send({ email: uniqueEmail('invitee'), roleId }),
      );
    expect(invitations.slice(0, 2).map((r) => r.status)).toEqual([201, 201]);
    expectRateLimited(invitations[2], 3600);

    const webhook = await http()
      .post('/api/webhooks')
      .set('cookie', person.cookie)
      .send({ url: 'http://127.0.0.1:9/hooks' });
    expect(webhook.status).toBe(201);
    const tests = [];
    for (let i = 0; i < 3; i++)
      tests.push(
        await http().post(`/api/webhooks/${webhook.body.id}/test`).set('cookie', person.cookie),
      );
    expect(tests.slice(0, 2).map((r) => r.status)).toEqual([202, 202]);
    expectRateLimited(tests[2], 3600);

    const organisations = [];
    for (let i = 0; i < 3; i++)
      organisations.push(
        await http()
          .post('/api/organisations')
          .set('cookie', person.cookie)
          .send({ name: `Org ${i}` }),
      );
    expect(organisations.slice(0, 2).map((r) => r.status)).toEqual([201, 201]);
    expectRateLimited(organisations[2], 3600);

    // A refused write wrote nothing: still two custom roles. (The person now has three organisations: name the first.)
    const listed = await http()
      .get('/api/roles')
      .set('cookie', person.cookie)
      .set('x-organisation-id', person.organisationId);
    expect(
      (listed.body.roles as { builtIn: string | null }[]).filter((r) => r.builtIn === null),
    ).toHaveLength(2);
    // Reads are not writes.
    expect(
      (
        await http()
          .get('/api/roles')
          .set('cookie', person.cookie)
          .set('x-organisation-id', person.organisationId)
      ).status,
    ).toBe(200);
  });

  it("the budget is the person's: a colleague of the same organisation still writes", async () => {
    const colleague = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      (await builtInRoleIds(t.app.getHttpServer(), owner.cookie)).owner,
      'Colleague',
    );
    // The owner spent one invitation on the colleague; one more, then refused.
    expect(
      (
        await http()
          .post('/api/roles')
          .set('cookie', owner.cookie)
          .send({ name: 'a', permissions: ['interrupt.read'] })
      ).status,
    ).toBe(201);
    expect(
      (
        await http()
          .post('/api/roles')
          .set('cookie', owner.cookie)
          .send({ name: 'b', permissions: ['interrupt.read'] })
      ).status,
    ).toBe(201);
    expectRateLimited(
      await http()
        .post('/api/roles')
        .set('cookie', owner.cookie)
        .send({ name: 'c', permissions: ['interrupt.read'] }),
      3600,
    );
    expect(
      (
        await http()
          .post('/api/roles')
          .set('cookie', colleague.cookie)
          .send({ name: 'd', permissions: ['interrupt.read'] })
      ).status,
    ).toBe(201);
  });

  it("every other human write spends the person's general budget", async () => {
    const person = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Busy' });
    const team = await http()
      .post('/api/teams')
      .set('cookie', person.cookie)
      .send({ name: 'team-0' });
    expect(team.status).toBe(201);
    const statuses: number[] = [];
    let refused: request.Response | undefined;
    for (let i = 1; i <= 20; i++) {
      const res = await http()
        .patch(`/api/teams/${team.body.id}`)
        .set('cookie', person.cookie)
        .send({ name: `team-${i}` });
      statuses.push(res.status);
      if (res.status === 429) {
        refused = res;
        break;
      }
    }
    // Sign-up is not a member write; the team's creation and 19 renames were, the 21st write is refused.
    expect(statuses).toHaveLength(20);
    expect(statuses.slice(0, 19).every((s) => s === 200)).toBe(true);
    expect(refused).toBeDefined();
    expectRateLimited(refused as request.Response, 60);
    expect((await http().get(`/api/teams`).set('cookie', person.cookie)).status).toBe(200);
  });
});
