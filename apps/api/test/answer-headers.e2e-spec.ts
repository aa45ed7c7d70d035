import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiKey, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

/**
 * Headers Node's server writes itself when the service sets none (a `Connection: close` the
 * service sets, on a 413, is in the line: it is compared then).
 */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function setByService(
  headers: Readonly<Record<string, unknown>>,
  logged: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers))
    if (!NODE_OWN.has(name) || name in logged) kept[name] = value;
  return kept;
}

// SPEC §4 and §8b: every answer echoes its request id, a key's answers carry the budget's
// `RateLimit-*` fields, and the request line lists the headers the answer was sent with — on
// every path an answer takes (Fastify's reply, the exception filter's error body, the 405 gate,
// a handler writing on Node's response: the CSV export, an event stream, the MCP transport's 405).
describe('the headers of every kind of answer', () => {
  let t: TestApp;
  let key: string;
  /** A key of another organisation (a budget of its own). */
  let otherKey: string;
  let cookie: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    // A budget of 3 an hour: the 429 is reached within the test, and an hour-long window (fixed,
    // aligned to the epoch) keeps the four requests in one window, so every count is exact.
    t = await startTestApp({
      env: { RATE_LIMIT_API_KEY_REQUESTS: '3', RATE_LIMIT_API_KEY_WINDOW_SECONDS: '3600' },
    });
    const owner = await signUpOwner(t.app.getHttpServer());
    cookie = owner.cookie;
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
    const other = await signUpOwner(t.app.getHttpServer());
    otherKey = (await createApiKey(t.app.getHttpServer(), other.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  /** The request line of `id`, once written (when the response closes). */
  async function lineOf(id: string): Promise<{ res: { headers: Record<string, unknown> } }> {
    let line: Record<string, unknown> | undefined;
    await waitFor(async () => {
      line = t.logs.find((l) => l.requestId === id && l.res !== undefined);
      return line !== undefined;
    }, `the request line of ${id}`);
    return line as { res: { headers: Record<string, unknown> } };
  }

  /** The answer echoes `id`, and its request line lists exactly the headers the service sent. */
  async function expectEchoedAndLogged(id: string, headers: IncomingHttpHeaders): Promise<void> {
    expect(headers['x-request-id']).toBe(id);
    const line = await lineOf(id);
    expect(line.res.headers).toEqual(setByService(headers, line.res.headers));
  }

  const BUDGET_FIELDS = [
    'ratelimit-limit',
    'ratelimit-policy',
    'ratelimit-remaining',
    'ratelimit-reset',
  ];

  it('200 on a key, then 429 past the budget: the request id and the RateLimit-* fields', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await http()
        .get('/api/whoami')
        .set('x-api-key', key)
        .set('x-request-id', `ok-${i}`);
      expect(res.status).toBe(200);
      for (const name of BUDGET_FIELDS) expect(res.headers[name]).toBeDefined();
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      await expectEchoedAndLogged(`ok-${i}`, res.headers);
    }
    const refused = await http()
      .get('/api/whoami')
      .set('x-api-key', key)
      .set('x-request-id', 'over');
    expect(refused.status).toBe(429);
    for (const name of BUDGET_FIELDS) expect(refused.headers[name]).toBeDefined();
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['retry-after']).toBe(refused.headers['ratelimit-reset']);
    await expectEchoedAndLogged('over', refused.headers);
  });

  it.each([
    ['401 a malformed key', 'get', '/api/whoami', { 'x-api-key': 'ilk_short' }, 401],
    ['401 no key', 'get', '/api/whoami', {}, 401],
    ['404 an unknown path', 'get', '/api/no-such-thing', {}, 404],
    ['405 a method the path does not serve', 'delete', '/api/whoami', {}, 405],
    [
      '415 a body that is not JSON',
      'post',
      '/api/auth/sign-in',
      { 'content-type': 'text/plain' },
      415,
    ],
  ] as const)(
    '%s: the request id, in the line too',
    async (name, method, path, headers, status) => {
      const id = `error-${status}-${name.length}`;
      let req = http()[method](path).set('x-request-id', id);
      for (const [header, value] of Object.entries(headers)) req = req.set(header, value);
      const res = method === 'post' ? await req.send('not json') : await req;
      expect(res.status).toBe(status);
      expect(res.body.requestId).toBe(id);
      if (status === 405) expect(res.headers.allow).toBeDefined();
      await expectEchoedAndLogged(id, res.headers);
    },
  );

  it('413 a JSON body over 1 MiB: the request id, in the line too', async () => {
    const res = await http()
      .post('/api/auth/sign-in')
      .set('x-request-id', 'too-large')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 16) }));
    expect(res.status).toBe(413);
    await expectEchoedAndLogged('too-large', res.headers);
  });

  it('answers written on Node’s response (the CSV export, the MCP transport’s 405): the request id, in the line too', async () => {
    const csv = await http()
      .get('/api/audit-log/export')
      .set('cookie', cookie)
      .set('x-request-id', 'csv-1');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    await expectEchoedAndLogged('csv-1', csv.headers);

    const mcp = await http().get('/mcp').set('x-api-key', otherKey).set('x-request-id', 'mcp-405');
    expect(mcp.status).toBe(405);
    expect(mcp.headers.allow).toBe('POST');
    for (const name of BUDGET_FIELDS) expect(mcp.headers[name]).toBeDefined();
    await expectEchoedAndLogged('mcp-405', mcp.headers);
  });

  it('an event stream: the request id on its head', async () => {
    const server = t.app.getHttpServer();
    if (!server.listening)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const head = await new Promise<{ status?: number; headers: IncomingHttpHeaders }>(
      (resolve, reject) => {
        const req = get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/events',
            headers: { cookie, 'x-request-id': 'sse-1' },
          },
          (res) => {
            resolve({ status: res.statusCode, headers: res.headers });
            req.destroy();
          },
        );
        req.on('error', reject);
      },
    );
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(head.headers['x-request-id']).toBe('sse-1');
  });
});
