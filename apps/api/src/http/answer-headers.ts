import type { ServerResponse } from 'node:http';
import {
  type HttpResponse,
  type ReplyHeaders,
  nodeResponse,
  replyHeadersOf,
  takeReply,
} from './platform';
import { answerReplyOf } from './request-state';

/**
 * Fastify's reply that will write `res`'s answer, while nothing has answered it yet: `res`
 * itself when it is the reply, else the reply the front door kept for Node's response's
 * request (`RequestState.reply`). Undefined on Express, and once the reply was answered or
 * handed over (`hijack`): then the headers go on Node's response.
 */
export function pendingReply(res: HttpResponse): ReplyHeaders | undefined {
  const reply = replyHeadersOf(res) ?? answerReplyOf((res as { req?: object }).req ?? res);
  return reply === undefined || reply.sent ? undefined : reply;
}

/**
 * Sets a header of the answer: on Fastify's reply while it is to write the answer — so that
 * Node's response has no header of its own and Node writes the head Fastify gives it in one
 * pass (issue 28: setting one header on Node's response sends every answer down Node's slower
 * path, which sets Fastify's headers on it again one by one) — else on Node's response.
 */
export function setAnswerHeader(res: HttpResponse, name: string, value: string): void {
  const reply = pendingReply(res);
  if (reply !== undefined) reply.header(name, value);
  else nodeResponse(res).setHeader(name, value);
}

/** Removes a header of the answer wherever `setAnswerHeader` put it. */
export function removeAnswerHeader(res: HttpResponse, name: string): void {
  const reply = pendingReply(res);
  if (reply !== undefined) reply.removeHeader(name);
  else nodeResponse(res).removeHeader(name);
}

/**
 * Node's response, for a writer that answers on it directly (an error body, the 405, the
 * dashboard): on Fastify the reply is told it was answered elsewhere and its headers (the
 * request id, the connection's, the budget's) are set on Node's response first.
 */
export function takeAnswer(res: HttpResponse): ServerResponse {
  const reply = pendingReply(res);
  return reply === undefined ? nodeResponse(res) : takeReply(reply);
}
