import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';

/**
 * What the service reads of a request, on either HTTP adapter: Express's request is Node's
 * `IncomingMessage` with Express's additions; Fastify's wraps Node's as `raw`. Both carry these
 * (`ip` honours `TRUST_PROXY` on both). Guards, decorators and controllers take this, never
 * an adapter's own type, so they run on Express and on Fastify alike.
 */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly query?: unknown;
  readonly body?: unknown;
  readonly ip?: string;
  /** Fastify: Node's request. */
  readonly raw?: IncomingMessage;
  /** Express: the URL before any mount point changed `url` (the service mounts none). */
  readonly originalUrl?: string;
}

/** What the service writes on a response, on either adapter: the Node `ServerResponse` under it. */
export type HttpResponse = object;

/** Node's request under either adapter's request. */
export function nodeRequest(req: object): IncomingMessage {
  return (req as { raw?: IncomingMessage }).raw ?? (req as IncomingMessage);
}

/**
 * Node's response under either adapter's response: Express's response is one; Fastify's reply
 * wraps it as `raw`. Headers set on it before a handler's answer are sent with that answer on
 * both adapters (Fastify merges them into the head it writes, on Node's slower path: the
 * service's own go through `setAnswerHeader`); streams (SSE, the CSV export, the MCP transport)
 * write to it directly.
 */
export function nodeResponse(res: object): ServerResponse {
  return (res as { raw?: ServerResponse }).raw ?? (res as ServerResponse);
}

/** The request's path, without the query. */
export function pathOf(req: { url?: string; originalUrl?: string }): string {
  const url = req.originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** The pattern of the route that matched (`/api/interrupts/:id`), once routed; else undefined. */
export function routePatternOf(req: object): string | undefined {
  const express = (req as { route?: { path?: unknown } }).route?.path;
  if (typeof express === 'string') return express;
  const fastify = (req as { routeOptions?: { url?: unknown } }).routeOptions?.url;
  return typeof fastify === 'string' ? fastify : undefined;
}

/**
 * Fastify's reply as the service uses it for an answer's headers: the answer's headers are set
 * on it (not on Node's response) until it is answered or handed over (`hijack`).
 */
export interface ReplyHeaders {
  readonly raw: ServerResponse;
  readonly sent: boolean;
  header(name: string, value: string): unknown;
  removeHeader(name: string): unknown;
  getHeaders(): Record<string, number | string | readonly string[] | undefined>;
  hijack(): unknown;
}

/** `res` when it is Fastify's reply (Express's response has a `header` too, but no `raw`). */
export function replyHeadersOf(res: object): ReplyHeaders | undefined {
  const reply = res as Partial<ReplyHeaders>;
  return typeof reply.hijack === 'function' && reply.raw !== undefined
    ? (reply as ReplyHeaders)
    : undefined;
}

/**
 * Node's response under a Fastify reply that will not answer: the reply told it was answered
 * elsewhere (`hijack`), so Fastify sends nothing, and the headers set on it so far (the request
 * id, the connection's, the budget's: `setAnswerHeader`) set on Node's response, which the
 * writer then answers on.
 */
export function takeReply(reply: ReplyHeaders): ServerResponse {
  const res = reply.raw;
  if (reply.sent) return res;
  const headers = reply.getHeaders();
  reply.hijack();
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) res.setHeader(name, value);
  }
  return res;
}

/**
 * Answers `body` with `status` on Node's response under a Fastify reply that has not answered,
 * with the reply's headers (the writer puts its own there first): the reply told it was answered
 * elsewhere (`hijack`), and the head written from its headers in one `writeHead`, where Node
 * takes them in one pass when nothing was set on its response (`takeReply` sets each on it).
 * Node's response then lists no header of its own: the request line reads the reply's.
 */
export function endOnReply(reply: ReplyHeaders, status: number, body: string): void {
  const headers = reply.getHeaders();
  reply.hijack();
  reply.raw.writeHead(status, headers as OutgoingHttpHeaders);
  // Node's server writes no body for HEAD itself.
  reply.raw.end(body);
}

/**
 * Node's response under either adapter's response, for a handler that writes its own answer
 * (`@Res()` without passthrough: a stream, the CSV export, the MCP transport). A Fastify reply
 * is told it was answered elsewhere (`hijack`), so Fastify sends nothing after the handler, and
 * its headers go with the answer (`takeReply`).
 */
export function takeResponse(res: object): ServerResponse {
  const reply = replyHeadersOf(res);
  return reply === undefined ? nodeResponse(res) : takeReply(reply);
}

/** Writes `body` as JSON with `status` (the bytes Express's `res.status(status).json(body)` writes here). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  res.end(text);
}
