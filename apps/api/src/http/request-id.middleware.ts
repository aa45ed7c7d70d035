import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReplyHeaders } from './platform';
import { attachRequestState, type RequestState } from './request-state';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The front door's first step: settles the request id (the caller's `x-request-id` when it is
 * sane, a new UUID otherwise), echoes it on every response, and attaches the request's state.
 * On Fastify (`reply`) the id goes on the reply, which the state keeps for the answer's other
 * headers (`setAnswerHeader`); on Express on Node's response.
 */
export function assignRequestId(
  req: IncomingMessage,
  res: ServerResponse,
  reply?: ReplyHeaders,
): RequestState {
  const offered = req.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  if (reply === undefined) res.setHeader('x-request-id', id);
  else reply.header('x-request-id', id);
  return attachRequestState(req, id, reply);
}
