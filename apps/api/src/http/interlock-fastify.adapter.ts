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
      // A Node response (a raw one Nest wraps): the adapter's way.
      if (typeof reply.header !== 'function') return super.reply(response, body.text, statusCode);
      if (reply.getHeader('content-type') === undefined) {
        reply.header('content-type', 'application/json; charset=utf-8');
      }
      // What the adapter's reply does with a string on a Fastify reply — the status, then send —
      // without its checks for a file stream, an Error, and an error object under a non-JSON
      // Content-Type, none of which a string is (issue 28: ~1 % of whoami's CPU).
      if (statusCode !== undefined && statusCode !== null) reply.code(statusCode);
      return reply.send(body.text);
    }
    return super.reply(response, body, statusCode);
  }
}
