import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type Express } from 'express';
import { createExpressServer } from './express-server';
import { JsonReplyExpressAdapter } from './json-reply.adapter';

interface Seen {
  request: object | null;
  response: object | null;
  isRequest: boolean;
  isResponse: boolean;
}

/** Each request's and response's prototype as the server made them, before Express sees them. */
function watch(server: Server): { seen: Seen[]; connections: () => number } {
  const seen: Seen[] = [];
  let connections = 0;
  server.on('connection', () => connections++);
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    seen.push({
      request: Object.getPrototypeOf(req) as object | null,
      response: Object.getPrototypeOf(res) as object | null,
      isRequest: req instanceof IncomingMessage,
      isResponse: res instanceof ServerResponse,
    });
  });
  return { seen, connections: () => connections };
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTTP/1.0 request written by hand (Node's client speaks 1.1): the raw response. */
function http10(base: string, path: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.end(`GET ${path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

describe('createExpressServer', () => {
  let server: Server;
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("makes each request and response with Express's prototypes, and Express serves them as before", async () => {
    const app: Express = express();
    app.use(express.json());
    app.get('/hello', (req, res) => {
      res
        .status(201)
        .json({ path: req.path, query: req.query, ip: req.ip, accepts: req.accepts('json') });
    });
    app.post('/echo', (req, res) => {
      res.json({ body: req.body as unknown, type: req.get('content-type') });
    });
    app.get('/stream', (_req, res) => {
      res.write('a');
      res.end('b');
    });
    server = createExpressServer(app);
    const { seen, connections } = watch(server);
    const base = await listening(server);

    // Several requests on kept-alive connections (fetch reuses them), and a body read by express.json().
    for (let i = 0; i < 3; i++) {
      const got = await fetch(`${base}/hello?n=${i}`);
      expect(got.status).toBe(201);
      expect(got.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await got.json()).toEqual({
        path: '/hello',
        query: { n: String(i) },
        ip: '127.0.0.1',
        accepts: 'json',
      });
    }
    const echoed = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":[1,"ü"]}',
    });
    expect(await echoed.json()).toEqual({ body: { a: [1, 'ü'] }, type: 'application/json' });
    expect((await fetch(`${base}/missing`)).status).toBe(404);
    // HEAD: the headers of GET, no body.
    const head = await fetch(`${base}/hello?n=0`, { method: 'HEAD' });
    expect(head.status).toBe(201);
    expect(head.headers.get('content-length')).toBe(
      String(
        JSON.stringify({ path: '/hello', query: { n: '0' }, ip: '127.0.0.1', accepts: 'json' })
          .length,
      ),
    );
    expect(await head.text()).toBe('');
    // Six requests over fewer connections: they were kept alive.
    expect(connections()).toBeLessThan(6);
    // HTTP/1.0 (the response reads the request's version): a streamed body without chunked framing.
    const old = await http10(base, '/stream');
    expect(old).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(old).not.toMatch(/transfer-encoding/i);
    expect(old.endsWith('\r\n\r\nab')).toBe(true);

    expect(seen).toHaveLength(7);
    for (const made of seen) {
      expect(made.request).toBe(app.request);
      expect(made.response).toBe(app.response);
      expect(made).toMatchObject({ isRequest: true, isResponse: true });
    }
  });

  it("is the HTTP server of the service's Nest adapter, and Nest's own where the adapter leaves it to Nest", async () => {
    @Module({})
    class EmptyModule {}
    for (const forceCloseConnections of [false, true]) {
      const app = await NestFactory.create<NestExpressApplication>(
        EmptyModule,
        new JsonReplyExpressAdapter(),
        {
          logger: false,
          forceCloseConnections,
        },
      );
      server = app.getHttpServer();
      const { seen } = watch(server);
      await app.init();
      const base = await listening(server);
      expect((await fetch(`${base}/nothing`)).status).toBe(404);
      const instance = app.getHttpAdapter().getInstance() as Express;
      expect(seen).toHaveLength(1);
      if (forceCloseConnections) {
        expect(seen[0].request).toBe(IncomingMessage.prototype);
        expect(seen[0].response).toBe(ServerResponse.prototype);
      } else {
        expect(seen[0].request).toBe(instance.request);
        expect(seen[0].response).toBe(instance.response);
      }
      await app.close();
    }
  });
});
