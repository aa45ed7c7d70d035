import { JsonText } from '@interlock/domain';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { ServerResponse } from 'node:http';

/**
 * Nest's Express adapter (`HTTP_ADAPTER=express`), answering a `JsonText` (JSON already written
 * out: a kept interrupt record, an audit page) as the JSON it is, where Express would send a
 * string as HTML. Everything else is Nest's and Express's own.
 */
export class InterlockExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (body instanceof JsonText) {
      const res = response as ServerResponse;
      if (!res.hasHeader('content-type'))
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
      return super.reply(response, body.text, statusCode);
    }
    return super.reply(response, body, statusCode);
  }
}
