import { ERROR_MESSAGES, ErrorBody, ErrorCode, reasonPhrase } from '@interlock/domain';
import { pendingReply } from './answer-headers';
import { endOnReply, nodeResponse, type HttpResponse } from './platform';

/**
 * Writes a SPEC §4 error body. Used by the exception filter and by the pre-routing middleware.
 *
 * The bytes `res.status(status).type('application/json').send(text)` writes with this app's
 * settings (ETags off) — the status, `Content-Type: application/json; charset=utf-8`,
 * `Content-Length`, the body — written directly: Express's `send` would parse
 * and format the content type again, compute the length and check freshness (never fresh for an
 * error status) on every refusal, and the malformed-key 401 must cost no more than an answer
 * (issue 14). On Fastify, while its reply is still to answer, the error's headers join the
 * answer's own on the reply (the request id, the connection's, the budget's) and Node writes the
 * head from them in one pass, as it does for Fastify's answers (`endOnReply`: no header set on
 * Node's response one by one, issue 28); the request line reads them from the reply.
 */
export function sendError(
  reply: HttpResponse,
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = `${bodyOpening(status, code, message)}${JSON.stringify(requestId)}}`;
  const length = String(Buffer.byteLength(text));
  const pending = pendingReply(reply);
  if (pending !== undefined) {
    for (const name in headers) pending.header(name, headers[name]);
    pending.header('content-type', JSON_UTF8);
    pending.header('content-length', length);
    endOnReply(pending, status, text);
    return;
  }
  const res = nodeResponse(reply);
  for (const name in headers) res.setHeader(name, headers[name]);
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_UTF8);
  res.setHeader('Content-Length', length);
  // Node's server writes no body for HEAD itself.
  res.end(text);
}

const JSON_UTF8 = 'application/json; charset=utf-8';

/** A code's body text before its request id, for the code's own status and catalogue message. */
const fixedOpenings = new Map<ErrorCode, { status: number; opening: string }>();

/**
 * The body's JSON up to its request id's value (`{"statusCode":401,…,"requestId":`), as
 * `JSON.stringify` writes the whole `ErrorBody`. Kept per code when the message is the
 * catalogue's own text (the refusals that come in floods: a malformed key's 401, 404, 405, 429),
 * so such a refusal makes no body object and stringifies only its request id (issue 28); any
 * other message (a validation's, naming the field) is written anew and never kept.
 */
function bodyOpening(status: number, code: ErrorCode, message: string): string {
  const fixed = (ERROR_MESSAGES as Record<string, string | undefined>)[code] === message;
  if (fixed) {
    const kept = fixedOpenings.get(code);
    if (kept !== undefined && kept.status === status) return kept.opening;
  }
  const body: ErrorBody = {
    statusCode: status,
    error: reasonPhrase(status),
    code,
    message,
    requestId: '',
  };
  // `"requestId":""}` less its empty string and brace: the id's JSON and `}` follow.
  const opening = JSON.stringify(body).slice(0, -3);
  if (fixed) fixedOpenings.set(code, { status, opening });
  return opening;
}
