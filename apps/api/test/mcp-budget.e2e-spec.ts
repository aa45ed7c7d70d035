import request from 'supertest';
import { MCP_MAX_WAITS_PER_KEY } from '../src/mcp/mcp.service';
import { createApiKey, openInterrupt, signUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 34, item 2: a JSON-RPC batch of 100 tools/call on /mcp was charged once against the
// organisation's request budget. Each call of a batch now spends one.
describe('/mcp batches spend the request budget per call', () => {
  let t: TestApp;
  let key: string;
  const http = () => request(t.app.getHttpServer());
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'list_pending', arguments: {} },
  });
  const mcp = (body: unknown) =>
    http()
      .post('/mcp')
      .set('x-api-key', key)
      .set('accept', 'application/json, text/event-stream')
      .set('content-type', 'application/json')
      .send(JSON.stringify(body));

  beforeAll(async () => {
    t = await startTestApp({
      env: { RATE_LIMIT_API_KEY_REQUESTS: '10', RATE_LIMIT_API_KEY_WINDOW_SECONDS: '3600' },
    });
    const owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a batch of five calls costs five; a batch past what is left is refused whole with the 429', async () => {
    const batch = await mcp([1, 2, 3, 4, 5].map(call));
    expect(batch.status).toBe(200);
    // Then one more request: 10 - 5 - 1 left.
    const whoami = await http().get('/api/whoami').set('x-api-key', key);
    expect(whoami.status).toBe(200);
    expect(whoami.headers['ratelimit-remaining']).toBe('4');

    const tooMany = await mcp(Array.from({ length: 6 }, (_, i) => call(10 + i)));
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests. Try again later.',
    });
    expect(Number(tooMany.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

/** The JSON-RPC messages of an answer: a JSON body, or the `data:` lines of an event stream. */
function messagesOf(res: request.Response): unknown[] {
  if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    return res.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .flatMap((line) => {
        const message = JSON.parse(line.slice(6)) as unknown;
        return Array.isArray(message) ? message : [message];
      });
  }
  return Array.isArray(res.body) ? (res.body as unknown[]) : [res.body];
}

// Issue 34, item 2: each wait polls the database, so one key's concurrent waits are capped.
describe('/mcp waits are capped per key', () => {
  let t: TestApp;
  let waitKey: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await signUpOwner(t.app.getHttpServer());
    waitKey = (await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'waiter' })).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it(`one key holds at most ${MCP_MAX_WAITS_PER_KEY} waits at once: a batch of more answers the rest at once, pending, saying so`, async () => {
    const opened = await openInterrupt(t.app.getHttpServer(), waitKey, { title: 'Wait for me' });
    const count = MCP_MAX_WAITS_PER_KEY + 3;
    const waits = Array.from({ length: count }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'get_decision', arguments: { interruptId: opened.id, waitSeconds: 2 } },
    }));
    const res = await http()
      .post('/mcp')
      .set('x-api-key', waitKey)
      .set('accept', 'application/json, text/event-stream')
      .set('content-type', 'application/json')
      .send(JSON.stringify(waits));
    expect(res.status).toBe(200);
    const answers = messagesOf(res) as {
      result: { structuredContent: { status: string; next: string } };
    }[];
    expect(answers).toHaveLength(count);
    const outcomes = answers.map((a) => a.result.structuredContent);
    expect(outcomes.every((o) => o.status === 'pending')).toBe(true);
    const notWaited = outcomes.filter((o) =>
      o.next.startsWith(
        'Not waited: this API key already has as many waits open as the server allows at once.',
      ),
    );
    expect(notWaited).toHaveLength(3);
    // The slots are given back: the next wait waits again.
    const again = await http()
      .post('/mcp')
      .set('x-api-key', waitKey)
      .set('accept', 'application/json, text/event-stream')
      .set('content-type', 'application/json')
      .send(
        JSON.stringify({
          ...waits[0],
          params: { name: 'get_decision', arguments: { interruptId: opened.id, waitSeconds: 1 } },
        }),
      );
    const [answer] = messagesOf(again) as { result: { structuredContent: { next: string } } }[];
    expect(answer.result.structuredContent.next).not.toMatch(/^Not waited/);
  });
});
