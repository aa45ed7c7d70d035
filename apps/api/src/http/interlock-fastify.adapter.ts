import { JsonText } from '@interlock/domain';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/**
 * Nest's Fastify adapter, answering a `JsonText` (JSON already written out: a kept interrupt
 * record, an audit page) as the JSON it is, where Fastify would send a string as text.
 */
export class InterlockFastifyAdapter extends FastifyAdapter {
  override reply(
    response: Parameters<FastifyAdapter['reply']>[0],
    body: unknown,
    statusCode?: number,
  ): FastifyReply {
    if (body instanceof JsonText) {
      const reply = response as FastifyReply;
      if (typeof reply.header === 'function' && reply.getHeader('content-type') === undefined) {
        reply.header('content-type', 'application/json; charset=utf-8');
      }
      return super.reply(response, body.text, statusCode);
    }
    return super.reply(response, body, statusCode);
  }
}
