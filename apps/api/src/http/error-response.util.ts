import { ErrorBody, ErrorCode, reasonPhrase } from '@interlock/domain';
import { type HttpResponse, nodeResponse } from './platform';

/**
 * Writes a SPEC §4 error body. Used by the exception filter and by the pre-routing middleware.
 *
 * The bytes `res.status(status).type('application/json').send(text)` writes with this app's
 * settings (ETags off) — the status, `Content-Type: application/json; charset=utf-8`,
 * `Content-Length`, the body — written directly: Express's `send` would parse
 * and format the content type again, compute the length and check freshness (never fresh for an
 * error status) on every refusal, and the malformed-key 401 must cost no more than an answer
 * (issue 14). On Fastify the same bytes go to the reply's Node response, the reply told that
 * it was answered (`hijack`).
 */
export function sendError(
  reply: HttpResponse,
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const hijack = (reply as { hijack?: () => void }).hijack;
  if (typeof hijack === 'function') hijack.call(reply);
  const res = nodeResponse(reply);
  const body: ErrorBody = {
    statusCode: status,
    error: reasonPhrase(status),
    code,
    message,
    requestId,
  };
  for (const name in headers) res.setHeader(name, headers[name]);
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  // Node's server writes no body for HEAD itself.
  res.end(text);
}
