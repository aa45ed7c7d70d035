import type { AddressInfo } from 'node:net';
import { JsonText } from '@interlock/domain';
import { Controller, Get, Head, HttpCode, Module, Post, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { JsonReplyExpressAdapter } from './json-reply.adapter';
import { rawResponse } from './raw-response.spec-support';

/** The ports of the apps whose handlers answer JsonText where the others answer the value. */
const rendering = new Set<number>();
const PAGE = {
  entries: [{ id: 'e1', summary: 'Key “ci” created\n', metadata: { n: 1.5, tags: ['a'] } }],
  nextCursor: null,
};
function page(req: Request): unknown {
  return rendering.has(req.socket.localPort ?? 0) ? new JsonText(JSON.stringify(PAGE)) : PAGE;
}

@Controller()
class Answers {
  @Get('rendered') rendered(@Req() req: Request) {
    return page(req);
  }
  @Head('rendered') renderedHead(@Req() req: Request) {
    return page(req);
  }
  @Get('rendered-typed') renderedTyped(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('content-type', 'application/problem+json');
    return page(req);
  }
  @Get('object') object() {
    return { id: 'a1', name: 'Zoë — “quoted” ✓', nested: { n: 1, list: [true, null, 'x'] } };
  }
  @Get('array') array() {
    return [{ a: 1 }, { b: '\u2028' }];
  }
  @Post('created') created() {
    return { created: true };
  }
  @Get('empty') @HttpCode(204) empty() {
    return undefined;
  }
  @Get('text') text() {
    return 'plain words';
  }
  @Get('async') async later() {
    return { later: 'yes' };
  }
  @Get('typed') typed(@Res({ passthrough: true }) res: Response) {
    res.setHeader('content-type', 'application/problem+json');
    return { typed: true };
  }
  @Head('object') head() {
    return { id: 'a1' };
  }
}

@Module({ controllers: [Answers] })
class AnswersModule {}

async function start(
  adapter: ExpressAdapter,
): Promise<{ app: NestExpressApplication; port: number }> {
  const app = await NestFactory.create<NestExpressApplication>(AnswersModule, adapter, {
    logger: false,
  });
  app.set('etag', false);
  app.disable('x-powered-by');
  await app.listen(0, '127.0.0.1');
  return { app, port: (app.getHttpServer().address() as AddressInfo).port };
}

describe('JsonReplyExpressAdapter', () => {
  it('writes the same bytes as Express for every kind of answer, JsonText as its value', async () => {
    const express = await start(new ExpressAdapter());
    const ours = await start(new JsonReplyExpressAdapter());
    rendering.add(ours.port);
    try {
      for (const [method, path, condition] of [
        ['GET', '/object'],
        ['GET', '/array'],
        ['POST', '/created'],
        ['GET', '/empty'],
        ['GET', '/text'],
        ['GET', '/async'],
        ['GET', '/typed'],
        ['HEAD', '/object'],
        ['GET', '/missing'],
        // Express answers these 304 (If-None-Match: *) or checks them, ETag or not.
        ['GET', '/object', { 'if-none-match': '*' }],
        ['GET', '/object', { 'if-modified-since': 'Sun, 22 Nov 2026 00:00:00 GMT' }],
        // JsonText answers (ours) against the value itself (Express).
        ['GET', '/rendered'],
        ['HEAD', '/rendered'],
        ['GET', '/rendered-typed'],
        ['GET', '/rendered', { 'if-none-match': '*' }],
        ['GET', '/rendered', { 'if-modified-since': 'Sun, 22 Nov 2026 00:00:00 GMT' }],
      ] as [string, string, Record<string, string>?][]) {
        const name = `${method} ${path} ${JSON.stringify(condition ?? {})}`;
        expect(`${name}\n${await rawResponse(ours.port, method, path, condition)}`).toBe(
          `${name}\n${await rawResponse(express.port, method, path, condition)}`,
        );
      }
    } finally {
      await express.app.close();
      await ours.app.close();
    }
  });
});
