import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ErrorCode } from '@interlock/domain';
import { ErrorBody, reasonPhrase } from '@interlock/domain';
import { sendError } from './error-response.util';
import { rawResponse } from './raw-response.spec-support';
import { assignRequestId } from './request-id.middleware';
import { requestIdOf } from './request-state';

/** What sendError wrote before issue 14: Express's own send, the reference for the bytes. */
function viaExpress(
  reply: object,
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  const res = reply as Response;
  const body: ErrorBody = {
    statusCode: status,
    error: reasonPhrase(status),
    code,
    message,
    requestId,
  };
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).type('application/json').send(JSON.stringify(body));
}

const CASES: Record<string, (send: typeof sendError, res: Response) => void> = {
  unauthorized: (send, res) => send(res, 401, 'INVALID_API_KEY', 'Invalid API key.', 'req-1'),
  // The catalogue's text is kept per code after its first body: another id, none, one JSON escapes.
  unauthorizedAgain: (send, res) =>
    send(res, 401, 'INVALID_API_KEY', 'Invalid API key.', 'f47ac10b-58cc-4372-a567-0e02b2c3d479'),
  unauthorizedNoId: (send, res) => send(res, 401, 'INVALID_API_KEY', 'Invalid API key.', ''),
  unauthorizedEscaped: (send, res) =>
    send(res, 401, 'INVALID_API_KEY', 'Invalid API key.', 'a"b\\c'),
  // The same code under another status, and with a message of its own: neither is the kept text.
  unauthorizedOtherStatus: (send, res) =>
    send(res, 403, 'INVALID_API_KEY', 'Invalid API key.', 'req-5'),
  unauthorizedOtherMessage: (send, res) =>
    send(res, 401, 'INVALID_API_KEY', 'That key is not one of ours.', 'req-6'),
  limited: (send, res) =>
    send(res, 429, 'RATE_LIMITED', 'Too many requests. Try again later.', 'req-2', {
      'Retry-After': '7',
    }),
  unicode: (send, res) =>
    send(res, 400, 'VALIDATION_FAILED', 'title: “Zoë” \u2028 ✓ is too long', 'req-3'),
  // A route that had set another type before it failed: the error is JSON all the same.
  retyped: (send, res) => (
    res.setHeader('Content-Type', 'text/event-stream'),
    send(
      res,
      503,
      'SERVICE_UNAVAILABLE',
      'The database is unavailable. Try again shortly.',
      'req-4',
    )
  ),
};

function listen(send: typeof sendError): Promise<Server> {
  const app = express();
  app.set('etag', false);
  app.disable('x-powered-by');
  app.all('/:case', (req, res) => CASES[req.params.case as string](send, res));
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const raw = (server: Server, method: string, path: string, headers?: Record<string, string>) =>
  rawResponse((server.address() as AddressInfo).port, method, path, headers);

describe('sendError', () => {
  it('writes the bytes Express writes for an error body: GET, HEAD, POST, conditional requests, extra headers, a type set before', async () => {
    const reference = await listen(viaExpress);
    const ours = await listen(sendError);
    try {
      for (const name of Object.keys(CASES)) {
        for (const [method, condition] of [
          ['GET'],
          ['HEAD'],
          ['POST'],
          // Express would answer a fresh GET 304; an error status is never fresh.
          ['GET', { 'if-none-match': '*' }],
          ['GET', { 'if-modified-since': 'Sun, 22 Nov 2026 00:00:00 GMT' }],
        ] as [string, Record<string, string>?][]) {
          const label = `${method} /${name} ${JSON.stringify(condition ?? {})}`;
          expect(`${label}\n${await raw(ours, method, `/${name}`, condition)}`).toBe(
            `${label}\n${await raw(reference, method, `/${name}`, condition)}`,
          );
        }
      }
    } finally {
      reference.close();
      ours.close();
    }
  });
});

// On Fastify the answer's own headers are on the reply (`setAnswerHeader`): an error joins them
// there and Node writes the head from them in one pass, with nothing set on its response first
// (issue 28: the malformed-key 401 on the path of Fastify's own answers).
describe('sendError on a Fastify reply', () => {
  /** The header names Node's response held as it wrote each head, by request id. */
  const heldByNode = new Map<string, string[]>();
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.addHook('onRequest', (request, reply, done) => {
      const res = reply.raw;
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
        heldByNode.set(String(request.headers['x-request-id']), res.getHeaderNames());
        return writeHead.apply(this, args);
      } as typeof writeHead;
      assignRequestId(request.raw, reply.raw, reply);
      done();
    });
    app.get('/refused', (request, reply) => {
      sendError(reply, 401, 'INVALID_API_KEY', 'Invalid API key.', requestIdOf(request.raw));
    });
    app.get('/limited', (request, reply) => {
      reply.header('ratelimit-limit', '100');
      sendError(reply, 429, 'RATE_LIMITED', 'Too many requests. Try again later.', 'lim-1', {
        'retry-after': '7',
      });
    });
    // A route that had set another type on Node's response before it failed.
    app.get('/retyped', (request, reply) => {
      reply.raw.setHeader('Content-Type', 'text/event-stream');
      sendError(
        reply,
        503,
        'SERVICE_UNAVAILABLE',
        'The database is unavailable. Try again shortly.',
        'ret-1',
      );
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (path: string, id: string) =>
    fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}${path}`, {
      headers: { 'x-request-id': id },
    });

  it('answers the SPEC body with the reply’s headers and its own, Node’s response holding none before the head', async () => {
    const res = await get('/refused', 'ref-1');
    const text = await res.text();
    expect(res.status).toBe(401);
    expect(JSON.parse(text)).toEqual({
      statusCode: 401,
      error: reasonPhrase(401),
      code: 'INVALID_API_KEY',
      message: 'Invalid API key.',
      requestId: 'ref-1',
    });
    expect(res.headers.get('x-request-id')).toBe('ref-1');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(heldByNode.get('ref-1')).toEqual([]);
  });

  it('keeps the headers set on the reply before and the ones it is given', async () => {
    const res = await get('/limited', 'lim-1');
    expect(res.status).toBe(429);
    expect(res.headers.get('ratelimit-limit')).toBe('100');
    expect(res.headers.get('retry-after')).toBe('7');
    expect(((await res.json()) as { code: string }).code).toBe('RATE_LIMITED');
    expect(heldByNode.get('lim-1')).toEqual([]);
  });

  it('answers JSON over a type set on Node’s response before', async () => {
    const res = await get('/retyped', 'ret-1');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await res.json()) as { requestId: string }).requestId).toBe('ret-1');
  });
});
