import {
  createServer,
  IncomingMessage,
  request,
  ServerResponse,
  type OutgoingHttpHeaders,
  type Server,
} from 'node:http';
import { Writable } from 'node:stream';
import { Socket, type AddressInfo } from 'node:net';
import {
  context,
  ROOT_CONTEXT,
  trace,
  type Context,
  type ContextManager,
} from '@opentelemetry/api';
import type { AppConfig } from '../config/app-config';
import { assignRequestId } from '../http/request-id.middleware';
import { markTracingEnabled } from '../tracing/spans';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { createLogger, httpLogger, isoTime, redactUrl } from './logger';
import { lineBatching } from './log-destination.util';

const KEY = `ilk_${'Ab'.repeat(32)}`;

describe('isoTime', () => {
  afterEach(() => jest.useRealTimers());

  it("writes pino's isoTime field, made anew when the millisecond changes", () => {
    jest.useFakeTimers({ now: new Date('2026-11-27T15:04:05.678Z') });
    expect(isoTime()).toBe(pino.stdTimeFunctions.isoTime());
    expect(isoTime()).toBe(',"time":"2026-11-27T15:04:05.678Z"');
    jest.setSystemTime(new Date('2026-11-27T15:04:05.679Z'));
    expect(isoTime()).toBe(',"time":"2026-11-27T15:04:05.679Z"');
    jest.setSystemTime(new Date('2026-11-28T00:00:00.000Z'));
    expect(isoTime()).toBe(pino.stdTimeFunctions.isoTime());
  });

  it('writes every millisecond of a second, and the next second, as pino does', () => {
    jest.useFakeTimers({ now: new Date('2026-12-31T23:59:58.000Z') });
    for (let ms = 0; ms < 2_500; ms += 1) {
      expect(isoTime()).toBe(pino.stdTimeFunctions.isoTime());
      jest.setSystemTime(Date.now() + 1);
    }
    expect(isoTime()).toBe(',"time":"2027-01-01T00:00:00.500Z"');
  });
});

describe('redactUrl', () => {
  it('keeps ordinary URLs as they are', () => {
    expect(redactUrl('/api/interrupts?status=open&limit=20')).toBe(
      '/api/interrupts?status=open&limit=20',
    );
    expect(redactUrl('/api/audit-log?q=deploy%20key&actorType=api_key')).toBe(
      '/api/audit-log?q=deploy%20key&actorType=api_key',
    );
    expect(redactUrl('/health/live')).toBe('/health/live');
  });

  it('redacts a key wherever it appears: a query value, a path segment, percent-encoded, as a bare name', () => {
    expect(redactUrl(`/api/whoami?x-api-key=${KEY}`)).toBe('/api/whoami?x-api-key=[redacted]');
    expect(redactUrl(`/api/whoami?q=${KEY}`)).toBe('/api/whoami?q=[redacted]');
    expect(redactUrl(`/api/whoami?q=${encodeURIComponent(` ${KEY}`)}`)).toBe(
      '/api/whoami?q= [redacted]',
    );
    expect(redactUrl(`/api/interrupts/${KEY}`)).toBe('/api/interrupts/[redacted]');
    expect(redactUrl(`/api/whoami?${KEY}`)).toBe('/api/whoami?[redacted]');
    expect(redactUrl('/x?v=ilk_Abcd')).toBe('/x?v=[redacted]');
  });

  it('recognises a configured prefix, and any prefix followed by 64 letters', () => {
    expect(redactUrl('/x?v=acme_Abcdef', 'acme_')).toBe('/x?v=[redacted]');
    expect(redactUrl(`/x?v=other_${'x'.repeat(64)}`, 'acme_')).toBe('/x?v=[redacted]');
  });

  it('redacts every parameter named like a credential, whatever its value', () => {
    for (const name of [
      'key',
      'api_key',
      'apiKey',
      'token',
      'access_token',
      'secret',
      'client_secret',
      'password',
      'passwd',
      'session',
      'auth',
      'signature',
    ]) {
      expect(redactUrl(`/x?a=1&${name}=hunter2&b=2`)).toBe(`/x?a=1&${name}=[redacted]&b=2`);
    }
    expect(redactUrl('/x?PASSWORD=a&Token=b')).toBe('/x?PASSWORD=[redacted]&Token=[redacted]');
  });

  it('redacts a token-shaped run of 43 base64url letters and keeps a run of 42 (the scan before the patterns)', () => {
    const run42 = 'a-_B9'.repeat(8) + 'xy';
    expect(redactUrl(`/api/interrupts/${run42}`)).toBe(`/api/interrupts/${run42}`);
    expect(redactUrl(`/api/interrupts/${run42}Z`)).toBe('/api/interrupts/[redacted]');
    expect(redactUrl(`/api/interrupts?cursor=${run42}Z&limit=5`)).toBe(
      '/api/interrupts?cursor=[redacted]&limit=5',
    );
    expect(redactUrl(`/x/${'q'.repeat(30)}.${'q'.repeat(30)}`)).toBe(
      `/x/${'q'.repeat(30)}.${'q'.repeat(30)}`,
    );
  });

  it('redacts the invitation token in its path', () => {
    expect(redactUrl('/api/invitations/tok-123/accept')).toBe('/api/invitations/[redacted]/accept');
    expect(redactUrl('/API/Invitations/tok-123/accept?x=1')).toBe(
      '/API/Invitations/[redacted]/accept?x=1',
    );
  });
});

describe('redactUrl and invitation tokens (issue 34, item 6)', () => {
  const TOKEN = 'X6JaqQtQvu0lacGUcX3lPQZLod6iFwt1xZiSO6LpBCU';

  it('redacts the token after invitations/ in every path, keeping an invitation id', () => {
    expect(redactUrl(`/api/invitations/${TOKEN}/preview`)).toBe(
      '/api/invitations/[redacted]/preview',
    );
    expect(redactUrl(`/api/invitations/${TOKEN}/join`)).toBe('/api/invitations/[redacted]/join');
    expect(redactUrl(`/invitations/${TOKEN}`)).toBe('/invitations/[redacted]');
    expect(redactUrl('/invitations/short-guess?x=1')).toBe('/invitations/[redacted]?x=1');
    expect(redactUrl('/api/invitations/0b7c4a52-1f0e-4d7a-9a51-55bd2b0b1e11')).toBe(
      '/api/invitations/0b7c4a52-1f0e-4d7a-9a51-55bd2b0b1e11',
    );
    expect(redactUrl('/api/invitations')).toBe('/api/invitations');
  });

  it('redacts it in a query value however often it was encoded, and in a full URL (a Referer)', () => {
    expect(redactUrl(`/sign-in?next=${encodeURIComponent(`/invitations/${TOKEN}`)}`)).toBe(
      '/sign-in?next=/invitations/[redacted]',
    );
    expect(
      redactUrl(`/sign-in?next=${encodeURIComponent(encodeURIComponent(`/invitations/${TOKEN}`))}`),
    ).toBe('/sign-in?next=/invitations/[redacted]');
    expect(redactUrl(`https://interlock.example.com/invitations/${TOKEN}?a=b`)).toBe(
      'https://interlock.example.com/invitations/[redacted]?a=b',
    );
    expect(redactUrl(`/x?invite=${TOKEN}&status=open`)).toBe('/x?invite=[redacted]&status=open');
  });
});

describe('the log for a person (LOG_FORMAT=pretty, pino-pretty loaded by its first use)', () => {
  /**
   * A pretty logger writing into memory, and what it wrote once `lines` lines are out: the pretty
   * stream hands its lines on through a pipe, so they are waited for (at most 5 s).
   */
  function prettyLogger() {
    const out: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger(
      { logLevel: 'info', logFormat: 'pretty' } as AppConfig,
      destination,
    );
    const written = async (lines: number): Promise<string> => {
      for (let waited = 0; out.join('').split('\n').length <= lines && waited < 5_000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return out.join('');
    };
    return { logger, written };
  }

  it('folds a request line into method, URL, status and duration, and writes other lines as their message', async () => {
    const { logger, written } = prettyLogger();
    logger.info(
      { req: { method: 'GET', url: '/api/whoami' }, res: { statusCode: 200 }, durationMs: 3 },
      'GET 200',
    );
    logger.warn('the dashboard is not built');
    const text = await written(2);
    expect(text).toContain('GET /api/whoami 200 3ms');
    expect(text).toMatch(/WARN.*the dashboard is not built/);
    expect(text).not.toContain('"level"');
  });

  it("folds httpLogger's own request line the same way", async () => {
    const { logger, written } = prettyLogger();
    const log = httpLogger(logger, 'ilk_');
    const req = new IncomingMessage(new Socket());
    req.method = 'POST';
    req.url = '/api/interrupts';
    const res = new ServerResponse(req);
    log(req, res, assignRequestId(req, res));
    res.statusCode = 201;
    res.emit('close');
    expect(await written(1)).toMatch(/INFO.*POST \/api\/interrupts 201 \d+ms/);
  });
});

/** Each line of `text` parsed into `lines`. */
const parsedInto = (lines: Array<Record<string, unknown>>) => (text: string) => {
  for (const line of text.split('\n'))
    if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
};

describe.each([
  ['to a stream of text', (take: (text: string) => void) => ({ write: take })],
  [
    "straight into the turn's bytes (standard output's lineBatching)",
    (take: (text: string) => void) =>
      lineBatching({ write: (bytes: Buffer) => take(bytes.toString('utf8')) }),
  ],
])('the request line (httpLogger), %s', (_how, destination) => {
  let server: Server;
  const lines: Array<Record<string, unknown>> = [];
  const served = new Map<string, { method: string; url: string; remoteAddress?: string }>();
  const sentHeaders = new Map<string, OutgoingHttpHeaders>();
  const json = { logLevel: 'info', logFormat: 'json' } as AppConfig;

  beforeAll(async () => {
    const logger = createLogger(json, destination(parsedInto(lines)));
    const log = httpLogger(logger, 'ilk_');
    server = createServer((req, res) => {
      const state = assignRequestId(req, res);
      log(req, res, state);
      served.set(state.id, {
        method: req.method ?? '',
        url: req.url ?? '',
        remoteAddress: req.socket.remoteAddress,
      });
      res.setHeader('set-cookie', ['session=cookie-from-the-service; HttpOnly', 'b=2']);
      res.setHeader('x-quoted', 'a "quoted" \\ Ünï value');
      res.setHeader('content-length', 2);
      sentHeaders.set(state.id, res.getHeaders());
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function send(headers: Record<string, string>, path = '/x'): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const req = request({ port: (server.address() as AddressInfo).port, path, headers });
      req.on('response', (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end();
    });
  }

  /** The line of `requestId`, written when the response closes, just after the client has it. */
  async function lineOf(requestId: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 1000 && !lines.some((l) => l.requestId === requestId); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const line = lines.find((l) => l.requestId === requestId);
    if (line === undefined) throw new Error(`no line for ${requestId}`);
    return line;
  }

  it('censors every credential header, a Set-Cookie and a token in the Referer, and keeps the rest', async () => {
    const token = 'T'.repeat(43);
    await send({
      'x-request-id': 'line-1',
      'x-api-key': KEY,
      cookie: 'session=cookie-secret-value',
      authorization: 'Bearer bearer-secret-value',
      'proxy-authorization': 'Basic proxy-secret-value',
      password: 'header-password-value',
      referer: `http://localhost/invitations/${token}`,
      'user-agent': 'line-test',
    });
    const line = (await lineOf('line-1')) as {
      req: { headers: Record<string, string> };
      res: { headers: Record<string, string> };
    };
    const text = JSON.stringify(line);
    for (const secret of [
      KEY,
      'cookie-secret-value',
      'bearer-secret-value',
      'proxy-secret-value',
      'header-password-value',
      'cookie-from-the-service',
      token,
    ])
      expect(text).not.toContain(secret);
    expect(line.req.headers).toMatchObject({
      'x-api-key': '[redacted]',
      cookie: '[redacted]',
      authorization: '[redacted]',
      'proxy-authorization': '[redacted]',
      password: '[redacted]',
      referer: 'http://localhost/invitations/[redacted]',
      'user-agent': 'line-test',
    });
    expect(line.res.headers['set-cookie']).toBe('[redacted]');
  });

  it('is the line pino writes for the same fields: level, time, service, request, response, message', async () => {
    // Values JSON must escape (quotes, a backslash, a tab, non-ASCII letters), a number, a list.
    await send(
      { 'x-request-id': 'line-2', 'user-agent': 'a\ttab "quoted" \\ Ünï', 'x-api-key': KEY },
      `/x?key=${KEY}&q=1`,
    );
    const ours = await lineOf('line-2');
    const request = served.get('line-2');
    if (request === undefined) throw new Error('line-2 was not served');
    const written: string[] = [];
    // The same fields through pino (a logger made as the service's), censored by hand.
    createLogger(json, { write: (line: string) => void written.push(line) }).info(
      {
        req: {
          method: request.method,
          url: '/x?key=[redacted]&q=1',
          headers: {
            'x-request-id': 'line-2',
            'user-agent': 'a\ttab "quoted" \\ Ünï',
            'x-api-key': '[redacted]',
            host: `localhost:${(server.address() as AddressInfo).port}`,
            connection: 'keep-alive',
          },
          remoteAddress: request.remoteAddress,
        },
        requestId: 'line-2',
        res: {
          statusCode: 200,
          headers: { ...sentHeaders.get('line-2'), 'set-cookie': '[redacted]' },
        },
        durationMs: ours.durationMs,
      },
      'GET 200',
    );
    const pinos = JSON.parse(written[0]) as Record<string, unknown>;
    expect(typeof ours.time).toBe('string');
    expect(JSON.stringify({ ...ours, time: undefined })).toBe(
      JSON.stringify({ ...pinos, time: undefined }),
    );
  });

  it('carries the trace and span ids of the trace it is written in, with traces on', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    const manager = new SynchronousContexts();
    context.setGlobalContextManager(manager);
    markTracingEnabled(true);
    try {
      const traced: Array<Record<string, unknown>> = [];
      const lineStream = destination(parsedInto(traced));
      const log = httpLogger(createLogger(json, lineStream), 'ilk_');
      const req = new IncomingMessage(new Socket());
      req.method = 'GET';
      req.url = '/x';
      const res = new ServerResponse(req);
      log(req, res, assignRequestId(req, res));
      const span = trace.wrapSpanContext({ traceId, spanId, traceFlags: 1 });
      context.with(trace.setSpan(ROOT_CONTEXT, span), () => res.emit('close'));
      (lineStream as { flushSync?: () => void }).flushSync?.();
      expect(traced).toHaveLength(1);
      expect(traced[0]).toMatchObject({ traceId, spanId, req: { method: 'GET', url: '/x' } });
    } finally {
      markTracingEnabled(false);
      context.disable();
    }
  });

  it("writes the time as pino's isoTime writes it, whatever the millisecond and across a second", () => {
    jest.useFakeTimers({ now: new Date('2026-12-31T23:59:59.990Z') });
    try {
      const timed: Array<Record<string, unknown>> = [];
      const lineStream = destination(parsedInto(timed));
      const log = httpLogger(createLogger(json, lineStream), 'ilk_');
      const expected: string[] = [];
      // .990, .991, the next year's .000, .009, .099, .100, .999
      for (const step of [0, 1, 9, 9, 90, 1, 899]) {
        jest.setSystemTime(Date.now() + step);
        const req = new IncomingMessage(new Socket());
        req.method = 'GET';
        req.url = '/x';
        const res = new ServerResponse(req);
        log(req, res, assignRequestId(req, res));
        res.emit('close');
        // pino's field is `,"time":"…"`: its value from the opening quote.
        expected.push(JSON.parse(pino.stdTimeFunctions.isoTime().slice(8)) as string);
      }
      (lineStream as { flushSync?: () => void }).flushSync?.();
      expect(expected).toContain('2027-01-01T00:00:00.000Z');
      expect(timed.map((line) => line.time)).toEqual(expected);
    } finally {
      jest.useRealTimers();
    }
  });

  it('is written only to a logger createLogger made (its stream and base fields)', () => {
    expect(() => httpLogger(pino(), 'ilk_')).toThrow(/createLogger/);
  });
});

// On Fastify the service's headers go on the reply (`setAnswerHeader`), and Fastify hands them to
// Node's response as it writes the head, which keeps none of them: the line lists the reply's
// headers then, censored as Node's response's are.
describe("the request line of an answer whose headers are Fastify's reply's", () => {
  const lines: Array<Record<string, unknown>> = [];
  /** The header names Node's response held once each answer was sent. */
  const heldByNode: string[][] = [];
  let app: FastifyInstance;

  beforeAll(async () => {
    const json = { logLevel: 'info', logFormat: 'json' } as AppConfig;
    const log = httpLogger(createLogger(json, { write: parsedInto(lines) }), 'ilk_');
    app = Fastify({ logger: false });
    app.addHook('onRequest', (request, reply, done) => {
      log(request.raw, reply.raw, assignRequestId(request.raw, reply.raw, reply));
      done();
    });
    app.addHook('onResponse', (_request, reply, done) => {
      heldByNode.push(reply.raw.getHeaderNames());
      done();
    });
    app.get('/x', (_request, reply) =>
      reply
        .header('Set-Cookie', ['session=cookie-on-the-reply; HttpOnly', 'b=2'])
        .header('x-kept', 'a value')
        .send('ok'),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('censors a Set-Cookie and keeps the rest', async () => {
    const { port } = app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/x`, {
      headers: { 'x-request-id': 'reply-1' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(['session=cookie-on-the-reply; HttpOnly', 'b=2']);
    await res.text();
    for (let i = 0; i < 1000 && !lines.some((l) => l.requestId === 'reply-1'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const line = lines.find((l) => l.requestId === 'reply-1') as
      { res: { headers: Record<string, unknown> } } | undefined;
    if (line === undefined) throw new Error('no line for reply-1');
    // The path under test: Node's response held none of the answer's headers.
    expect(heldByNode).toEqual([[]]);
    expect(JSON.stringify(line)).not.toContain('cookie-on-the-reply');
    expect(line.res.headers).toMatchObject({
      'set-cookie': '[redacted]',
      'x-kept': 'a value',
      'x-request-id': 'reply-1',
    });
  });
});

/** Contexts entered and left synchronously (`context.with`): enough for a line written in one. */
class SynchronousContexts implements ContextManager {
  private current: Context = ROOT_CONTEXT;
  active(): Context {
    return this.current;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    entered: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const previous = this.current;
    this.current = entered;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}
