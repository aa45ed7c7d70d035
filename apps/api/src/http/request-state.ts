import type { IncomingMessage } from 'node:http';
import { nodeRequest, type ReplyHeaders } from './platform';

/**
 * What the service knows about one request, in one object attached once by the front door
 * (the first step of every request, `assignRequestId`): its id, who is asking (set by the authentication guard), whether its
 * body was not JSON (refused with 415 after the guards), and the request's logger once made.
 * One property on the request instead of one per fact: every property added to a Node request
 * is a hidden-class transition on a large object, paid on every request (issue 14).
 * Each slot is read and written through its module's accessor (`requestIdOf`, `principalOf`,
 * `requestLog`, …), never directly. It lives on Node's request, so the accessors take either
 * adapter's request (Fastify's wraps Node's as `raw`).
 */
export class RequestState {
  principal: unknown = undefined;
  /** The sign-in cookie's token the guard authenticated (event streams re-check it at each heartbeat). */
  signInToken: string | undefined = undefined;
  notJson = false;
  /**
   * Answered 413 while the body was still arriving (the Express adapter's `jsonBodyCapStep`): the
   * JSON parser's own error, once the connection closes, has nothing left to answer.
   */
  answeredTooLarge = false;
  /** The raw bytes of a form body on a route that verifies a signature over them (`keepsRawForm`). */
  rawBody: Buffer | undefined = undefined;
  requestLog: unknown = undefined;
  logContext: unknown = undefined;
  /** The matched route's pattern where the adapter knows it before the handler (Fastify). */
  route: string | undefined = undefined;
  /** When the front door took the request (`performance.now()`): the log line's duration. */
  startedAt = 0;
  /**
   * Fastify's reply (the Fastify front door's): where the answer's headers go (`setAnswerHeader`)
   * and, when it answered, where the log line reads them. Undefined on Express.
   */
  reply: ReplyHeaders | undefined = undefined;

  constructor(readonly id: string) {}
}

type WithState = IncomingMessage & { interlock?: RequestState };

/** The request's state; a request that did not pass the front door (a unit test's fake) gets one now. */
export function requestStateOf(req: object): RequestState {
  const withState = nodeRequest(req) as WithState;
  return (withState.interlock ??= new RequestState(''));
}

export function attachRequestState(
  req: IncomingMessage,
  id: string,
  reply?: ReplyHeaders,
): RequestState {
  const state = new RequestState(id);
  state.reply = reply;
  (req as WithState).interlock = state;
  return state;
}

/** The Fastify reply the front door kept for the request (`RequestState.reply`), if any. */
export function answerReplyOf(req: object): ReplyHeaders | undefined {
  return (nodeRequest(req) as WithState).interlock?.reply;
}

/** The request id settled by the front door ('' for a request that never passed it). */
export function requestIdOf(req: object): string {
  return (nodeRequest(req) as WithState).interlock?.id ?? '';
}
