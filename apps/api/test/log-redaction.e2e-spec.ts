import request from 'supertest';
import {
  builtInRoleIds,
  createApiKey,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 10, defect 4: a key sent in the query string (`?x-api-key=ilk_…`) was logged in full
// in the request line's `url`. Credentials in a URL never reach any log line.
describe('credentials in URLs are redacted from every log line', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());
  const logged = () => JSON.stringify(t.logs);

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a key in the query string, under any name, in a path or percent-encoded', async () => {
    const requests = [
      `/api/whoami?x-api-key=${key}`,
      `/api/whoami?q=${key}`,
      `/api/whoami?q=${encodeURIComponent(`Bearer ${key}`)}`,
      `/api/interrupts/${key}`,
      `/api/whoami?${key}`,
      `/no-such-route?apiKey=${key}`,
    ];
    for (const url of requests) await http().get(url);
    const lines = t.logs.filter(
      (l) => typeof (l.req as { url?: string } | undefined)?.url === 'string',
    );
    expect(lines.length).toBeGreaterThanOrEqual(requests.length);
    expect(logged()).not.toContain(key);
    expect(logged()).not.toContain(key.slice(8));
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual(
      expect.arrayContaining([
        '/api/whoami?x-api-key=[redacted]',
        '/api/interrupts/[redacted]',
        '/no-such-route?apiKey=[redacted]',
      ]),
    );
  });

  it("a request the router refuses (a malformed URL, an id over the router's length) is logged too, redacted", async () => {
    const before = t.logs.length;
    const refused = [`/api/%zz?x-api-key=${key}`, `/api/interrupts/${'a'.repeat(2049)}?q=${key}`];
    const answers = [];
    for (const url of refused)
      answers.push(await http().get(url).set('x-request-id', `refused-${answers.length}`));
    // Each answer's request id names its line (the line is written as the answer finishes).
    for (const [i, answer] of answers.entries()) {
      expect(answer.headers['x-request-id']).toBe(`refused-${i}`);
      let line: { req?: { url?: string }; res?: { statusCode?: number } } | undefined;
      for (let attempt = 0; attempt < 50 && line === undefined; attempt++) {
        line = t.logs
          .slice(before)
          .find((l) => l.requestId === `refused-${i}` && l.res !== undefined) as typeof line;
        if (line === undefined) await new Promise((r) => setTimeout(r, 20));
      }
      expect(line?.req?.url).toBe(refused[i].replace(key, '[redacted]'));
    }
    expect(logged()).not.toContain(key);
  });

  it('parameters named like a credential, whatever their value', async () => {
    await http().get(
      '/api/whoami?token=tok-abc-123&password=hunter2hunter2&client_secret=s3cr3t-value&status=open',
    );
    expect(logged()).not.toMatch(/tok-abc-123|hunter2hunter2|s3cr3t-value/);
    expect(logged()).toContain(
      '/api/whoami?token=[redacted]&password=[redacted]&client_secret=[redacted]&status=open',
    );
  });
});

// Issue 34, item 6: only `/accept` was redacted; `/preview`, `/join`, the dashboard's page
// `/invitations/<token>`, a `next=` that leads there and the Referer those pages send logged
// the token, and a token lets its holder create the invitee's account.
describe('invitation tokens are redacted from every log line of an invitation flow', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    // As a platform team runs it: in production. (Without SMTP_URL, development writes each email,
    // links and all, to the log on purpose, SPEC §8f; production logs only that one was not sent.)
    t = await startTestApp({
      env: {
        NODE_ENV: 'production',
        API_KEY_PEPPER: 'production-pepper-0123456789-0123456789-0123456789',
        SHUTDOWN_DRAIN_DELAY_MS: '0',
      },
    });
    owner = await signUpOwner(t.app.getHttpServer());
  });
  afterAll(async () => {
    await t.close();
  });

  async function invite(email: string): Promise<string> {
    const roleId = (await builtInRoleIds(t.app.getHttpServer(), owner.cookie)).manager;
    const res = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email, roleId });
    expect(res.status).toBe(201);
    return res.body.token as string;
  }

  it('the page, the preview, sign-in with next=, accept, join and their Referer never log a token', async () => {
    const newcomer = uniqueEmail('newcomer');
    const first = await invite(newcomer);
    const page = `http://localhost/invitations/${first}`;
    // What a browser does with the link: the page, the preview it reads, the sign-in detour, acceptance.
    await http().get(`/invitations/${first}`).set('accept', 'text/html');
    await http()
      .get(`/invitations/${encodeURIComponent(first)}?from=email`)
      .set('accept', 'text/html');
    await http().get(`/api/invitations/${first}/preview`).set('referer', page);
    await http()
      .get(`/sign-in?next=${encodeURIComponent(`/invitations/${first}`)}`)
      .set('accept', 'text/html')
      .set('referer', page);
    await http()
      .get(`/sign-in?next=${encodeURIComponent(encodeURIComponent(`/invitations/${first}`))}`)
      .set('accept', 'text/html');
    await http().get(`/api/invitations/${first}/no-such-thing`);
    const accepted = await http()
      .post(`/api/invitations/${first}/accept`)
      .set('referer', page)
      .send({ name: 'Grace Hopper', password: 'correct horse battery staple' });
    expect(accepted.status).toBe(201);

    // An existing account joins a second organisation.
    const other = await signUpOwner(t.app.getHttpServer(), { email: uniqueEmail('existing') });
    const second = await invite(other.email);
    await http()
      .get(`/api/invitations/${second}/preview`)
      .set('cookie', other.cookie)
      .set('referer', `http://localhost/invitations/${second}`);
    const joined = await http()
      .post(`/api/invitations/${second}/join`)
      .set('cookie', other.cookie)
      .set('referer', `http://localhost/invitations/${second}`);
    expect(joined.status).toBe(201);
    // Used tokens answer 404: still not logged.
    await http().get(`/api/invitations/${second}/preview`);

    const logged = JSON.stringify(t.logs);
    const urls = t.logs
      .map((l) => (l.req as { url?: string } | undefined)?.url)
      .filter((u): u is string => typeof u === 'string');
    expect(urls).toEqual(
      expect.arrayContaining([
        '/invitations/[redacted]',
        '/api/invitations/[redacted]/preview',
        '/api/invitations/[redacted]/join',
      ]),
    );
    expect(urls).toContain('/sign-in?next=/invitations/[redacted]');
    for (const token of [first, second]) {
      expect(logged).not.toContain(token);
      expect(logged).not.toContain(token.slice(0, 20));
      expect(logged).not.toContain(token.slice(-20));
    }
  });
});
