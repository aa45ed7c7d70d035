import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
function watch(server: Server): Seen[] {
  const seen: Seen[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    seen.push({
      request: Object.getPrototypeOf(req) as object | null,
      response: Object.getPrototypeOf(res) as object | null,
      isRequest: req instanceof IncomingMessage,
      isResponse: res instanceof ServerResponse,
    });
  });
  return seen;
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
      res.status(201).json({ path: req.path, query: req.query, ip: req.ip, accepts: req.accepts('json') });
    });
    app.post('/echo', (req, res) => {
      res.json({ body: req.body as unknown, type: req.get('content-type') });
    });
    server = createExpressServer(app);
    const seen = watch(server);
    const base = await listening(server);

    // Several requests on one kept-alive connection (fetch reuses it), and a body read by express.json().
    for (let i = 0; i < 3; i++) {
      const got = await fetch(`${base}/hello?n=${i}`);
      expect(got.status).toBe(201);
      expect(got.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await got.json()).toEqual({ path: '/hello', query: { n: String(i) }, ip: '127.0.0.1', accepts: 'json' });
    }
    const echoed = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,"ü"]}' });
    expect(await echoed.json()).toEqual({ body: { a: [1, 'ü'] }, type: 'application/json' });
    const missing = await fetch(`${base}/missing`);
    expect(missing.status).toBe(404);

    expect(seen).toHaveLength(5);
    for (const made of seen) {
      expect(made).toEqual({ request: app.request, response: app.response, isRequest: true, isResponse: true });
    }
  });

  it("is the HTTP server of the service's Nest adapter", async () => {
    @Module({})
    class EmptyModule {}
    const app = await NestFactory.create<NestExpressApplication>(EmptyModule, new JsonReplyExpressAdapter(), { logger: false });
    server = app.getHttpServer();
    const seen = watch(server);
    await app.init();
    const base = await listening(server);
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
    const instance = app.getHttpAdapter().getInstance() as Express;
    expect(seen).toEqual([{ request: instance.request, response: instance.response, isRequest: true, isResponse: true }]);
    await app.close();
  });
});
