// The client against a real HTTP server on loopback, with the runtime's own fetch: what the
// mocked-fetch tests cannot show (real aborts, real headers on the wire, real JSON bodies).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Interlock } from './client';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  NotFoundError,
  RedirectError,
} from './errors';

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let baseURL: string;
let route: Route;
const seen: Array<{
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      route(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
}

describe('Interlock client over real HTTP', () => {
  it('posts JSON with x-api-key and an Idempotency-Key, retrying a 429 after Retry-After', async () => {
    let calls = 0;
    route = (_req, body, res) => {
      calls += 1;
      if (calls === 1)
        return send(
          res,
          429,
          { statusCode: 429, code: 'RATE_LIMITED', message: 'slow', requestId: 'r1' },
          { 'retry-after': '1' },
        );
      send(res, 201, { id: 's1', name: JSON.parse(body).name });
    };
    const client = new Interlock({ apiKey: 'ilk_http', baseURL });
    const started = Date.now();
    const session = await client.sessions.start({ name: 'run' });
    expect(session).toEqual({ id: 's1', name: 'run' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);
    expect(seen[0].headers['x-api-key']).toBe('ilk_http');
    expect(seen[0].headers.authorization).toBeUndefined();
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(seen[0].headers['idempotency-key']).toBe(seen[1].headers['idempotency-key']);
    expect(seen[1].body).toBe('{"name":"run"}');
  });

  it('ends a session with an empty body and no content-type', async () => {
    route = (_req, _body, res) => send(res, 200, { id: 's1', name: 'run', status: 'ended' });
    await new Interlock({ apiKey: 'k', baseURL }).sessions.end('s1');
    expect(seen[0].method).toBe('POST');
    expect(seen[0].body).toBe('');
    expect(seen[0].headers['content-type']).toBeUndefined();
  });

  it('times out a stalled response with APIConnectionTimeoutError', async () => {
    route = () => undefined; // never answers
    const client = new Interlock({ apiKey: 'k', baseURL, timeout: 100, maxRetries: 0 });
    await expect(client.whoami()).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('maps the error body and reports a refused connection', async () => {
    route = (_req, _body, res) =>
      send(res, 401, {
        statusCode: 401,
        error: 'Unauthorized',
        code: 'INVALID_API_KEY',
        message: 'Invalid API key.',
        requestId: 'abc',
      });
    const error = await new Interlock({ apiKey: 'k', baseURL }).whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toBe('Invalid API key.');
    expect((error as AuthenticationError).requestId).toBe('abc');

    // A port nothing listens on.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const closed = new Interlock({
      apiKey: 'k',
      baseURL: `http://127.0.0.1:${port}`,
      maxRetries: 0,
    });
    const refused = await closed.interrupts.list({ status: 'open' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIConnectionError);
    // The URL tried (without its query), the operating system's reason, and what to check.
    expect((refused as APIConnectionError).message).toBe(
      `Connection error: could not reach http://127.0.0.1:${port}/api/interrupts (connect ECONNREFUSED 127.0.0.1:${port}). ` +
        `Check that Interlock is running at http://127.0.0.1:${port}, or set baseURL (or INTERLOCK_BASE_URL) to where it runs.`,
    );
  });

  it('says when a 404 comes from a base URL that ends in /api, and keeps other 404s exact', async () => {
    route = (_req, _body, res) =>
      send(res, 404, {
        statusCode: 404,
        error: 'Not Found',
        code: 'NOT_FOUND',
        message: 'Not found.',
        requestId: 'r',
      });
    const doubled = await new Interlock({ apiKey: 'k', baseURL: `${baseURL}/api/` }).interrupts
      .get('i1')
      .catch((e: unknown) => e);
    expect(doubled).toBeInstanceOf(NotFoundError);
    expect((doubled as NotFoundError).message).toBe(
      `Not found. (GET ${baseURL}/api/api/interrupts/i1: the base URL ${baseURL}/api ends in /api, but the SDK adds /api ` +
        `itself; set baseURL (or INTERLOCK_BASE_URL) to ${baseURL})`,
    );
    expect(seen.at(-1)?.url).toBe('/api/api/interrupts/i1');
    const plain = await new Interlock({ apiKey: 'k', baseURL }).interrupts
      .get('i1')
      .catch((e: unknown) => e);
    expect((plain as NotFoundError).message).toBe('Not found.');
  });
});

// Issue 34, item 7: fetch follows redirects by default, and a 307 from one origin to another
// delivered the key (x-api-key is not a header fetch strips across origins) and the body.
describe('redirects are never followed', () => {
  let elsewhere: Server;
  let elsewhereURL: string;
  const reached: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];

  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        reached.push({ url: req.url ?? '', headers: req.headers, body });
        send(res, 201, { id: 'stolen' });
      });
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    // Another origin: the same loopback address under another name and port.
    elsewhereURL = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    elsewhere.closeAllConnections();
    await new Promise((resolve) => elsewhere.close(resolve));
  });
  beforeEach(() => {
    reached.length = 0;
  });

  it.each([301, 302, 303, 307, 308])(
    'a %i to another origin raises RedirectError and sends it neither the key nor the body',
    async (status) => {
      route = (_req, _body, res) => {
        res
          .writeHead(status, {
            location: `${elsewhereURL}/api/interrupts`,
            'x-request-id': 'req-redirect',
          })
          .end();
      };
      const client = new Interlock({ apiKey: 'ilk_redirect_secret', baseURL, maxRetries: 2 });
      const error = await client.interrupts
        .create({ title: 'Deploy', actionRequests: [{ name: 'deploy' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      const redirect = error as RedirectError;
      expect(redirect.status).toBe(status);
      expect(redirect.location).toBe(`${elsewhereURL}/api/interrupts`);
      expect(redirect.requestId).toBe('req-redirect');
      expect(redirect.message).toBe(
        `The service answered ${status} with a redirect to ${elsewhereURL}/api/interrupts; the SDK does not follow redirects (they could carry the API key elsewhere): set baseURL to the service's address.`,
      );
      expect(reached).toEqual([]);
      // Not retried: a redirect is an answer, not a failure.
      expect(seen).toHaveLength(1);
    },
  );

  it('a redirect to the same origin is refused too, and a GET as well', async () => {
    route = (_req, _body, res) => res.writeHead(302, { location: '/api/whoami-elsewhere' }).end();
    const error = await new Interlock({ apiKey: 'k', baseURL }).whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).location).toBe('/api/whoami-elsewhere');
    expect(seen.map((r) => r.url)).toEqual(['/api/whoami']);
  });
});

describe('one client keeps its connection from wait to wait', () => {
  it('asks again after a full hold on the connection the hold came back on, as after the create', async () => {
    // A server of its own: a new origin, so that fetch's pool holds no connection of another test.
    let connections = 0;
    const asked: string[] = [];
    const own = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      if (req.method === 'POST') {
        req.resume();
        return send(res, 201, { id: 'int_1', status: 'open', decisions: [] });
      }
      // The first wait is held its full time and the interrupt is still open; the next read finds
      // it answered (at once, however the SDK asks).
      const waitSeconds = Number(/waitSeconds=(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      const answer = (status: string) => send(res, 200, { id: 'int_1', status, decisions: [] });
      if (asked.length === 2 && waitSeconds > 0)
        setTimeout(() => answer('open'), waitSeconds * 1000);
      else answer('answered');
    });
    own.on('connection', () => connections++);
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      const client = new Interlock({
        apiKey: 'k',
        baseURL: `http://127.0.0.1:${(own.address() as AddressInfo).port}`,
      });
      const opened = await client.interrupts.create({
        title: 'Deploy',
        actionRequests: [{ name: 'deploy' }],
      });
      // The first wait asks for the whole seconds left (2) and is held that long; the re-ask must
      // come before the deadline, so the timeout leaves it nearly a second (2.5 s left half of one,
      // tight for a loaded machine's late timer and response).
      const answered = await client.interrupts.waitForAnswer(opened.id, { timeout: 2_990 });
      expect(answered.status).toBe('answered');
      expect(asked).toHaveLength(3);
      expect(asked[1]).toMatch(/^GET \/api\/interrupts\/int_1\?waitSeconds=[12]$/);
      // Node's fetch hands a connection back to its pool a turn after its response: asked sooner,
      // every request but the create came on a new connection while the last one idled.
      expect(connections).toBe(1);
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  }, 30_000);
});
