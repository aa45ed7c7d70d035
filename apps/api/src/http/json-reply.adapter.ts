import { JsonText } from '@interlock/domain';
import { StreamableFile } from '@nestjs/common';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createExpressServer } from './express-server';

/** Statuses whose responses carry no body (Express strips it): left to Express. */
const BODILESS = new Set([204, 205, 304]);

/**
 * Nest's Express adapter, writing a handler's JSON answer itself: `JSON.stringify`, the two
 * headers Express would set (`Content-Type: application/json; charset=utf-8` and
 * `Content-Length`) and one `end`. The same bytes as `res.json` with this app's settings (no
 * replacer, no spaces, no escaping, ETags off), without Express's per-response content-type
 * parsing and formatting, charset rewriting and freshness check (issue 14). Anything else — no
 * body, a stream, a bodiless status, HEAD, a conditional request (Express may answer it 304), a
 * Content-Type or Transfer-Encoding already set — goes to Nest's own reply, and so to Express.
 *
 * A `JsonText` answer is JSON already written out: its text is sent where `JSON.stringify` of
 * the value would have been, here and (as a JSON-typed string) through Express.
 *
 * Its HTTP server makes requests and responses with Express's prototypes from the start
 * (`createExpressServer`); with HTTPS or `forceCloseConnections`, which this service does not
 * use, it is Nest's own.
 */
export class JsonReplyExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections)
      return super.initHttpServer(options);
    this.httpServer = createExpressServer(this.getInstance<Express>());
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (statusCode) response.statusCode = statusCode;
    if (
      body === null ||
      typeof body !== 'object' ||
      body instanceof StreamableFile ||
      body instanceof Error ||
      ArrayBuffer.isView(body) ||
      BODILESS.has(response.statusCode) ||
      response.req.method === 'HEAD' ||
      // Express answers some conditional requests 304 even without an ETag (If-None-Match: *).
      response.req.headers['if-none-match'] !== undefined ||
      response.req.headers['if-modified-since'] !== undefined ||
      response.hasHeader('content-type') ||
      response.hasHeader('transfer-encoding')
    ) {
      if (body instanceof JsonText) {
        if (!response.hasHeader('content-type'))
          response.setHeader('Content-Type', 'application/json; charset=utf-8');
        return super.reply(response, body.text, statusCode);
      }
      return super.reply(response, body, statusCode);
    }
    const json =
      body instanceof JsonText ? body.text : (JSON.stringify(body) as string | undefined);
    if (json === undefined) return super.reply(response, body, statusCode);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', String(Buffer.byteLength(json)));
    response.end(json);
    return response;
  }
}
