import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_MESSAGES } from '@interlock/domain';
import { sendError } from './error-response.util';
import { jsonSizeProblem } from './json-limits.util';
import { pathOf } from './platform';
import { keepsRawForm } from './raw-form-routes';
import { requestStateOf } from './request-state';

/** SPEC §10: JSON bodies are at most 1 MiB. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** `application/json` and `application/<anything>+json`, with or without parameters. */
export const JSON_CONTENT_TYPE = /^application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;

/** 400 for a body the client stopped sending, or shorter than its Content-Length. */
export const INCOMPLETE_BODY = 'body: the request body was incomplete.';

/** The body parser's `type` for a body-parser error past the field limits (`jsonSizeProblem`). */
export const TOO_MANY_FIELDS = 'entity.too.many.fields';

/**
 * The options of the Express adapter's JSON body parser (`app.useBodyParser('json', …)`, Nest's
 * own `express.json`): JSON under 1 MiB, any JSON value (the pipes refuse a non-object), and
 * the field limits checked on the raw bytes in one pass before `JSON.parse` spends time on
 * them. Its errors reach `AllExceptionsFilter`, which answers them with the SPEC's texts (the
 * Fastify adapter's parser, `installFastifyFrontDoor`, answers the same).
 */
export const JSON_BODY_PARSER_OPTIONS = {
  limit: MAX_JSON_BODY_BYTES,
  strict: false,
  type: (req: IncomingMessage) => JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? ''),
  verify: (_req: IncomingMessage, _res: ServerResponse, body: Buffer) => {
    const problem = jsonSizeProblem(body);
    if (problem !== null) throw Object.assign(new Error(problem), { type: TOO_MANY_FIELDS });
  },
};

function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** 413 with the SPEC §4 body, closing the connection: the rest of the body is never read. */
function answerTooLarge(req: IncomingMessage, res: ServerResponse): void {
  const state = requestStateOf(req);
  state.answeredTooLarge = true;
  sendError(res, 413, 'PAYLOAD_TOO_LARGE', ERROR_MESSAGES.PAYLOAD_TOO_LARGE, state.id, {
    connection: 'close',
  });
}

/**
 * The Express adapter's step before its JSON parser (issue 28): a JSON body sent as it is (no
 * `Content-Encoding`) is answered 413 as soon as its declared Content-Length, or the bytes
 * received so far, pass 1 MiB, and the connection is closed. body-parser alone answers only after
 * reading the whole body, which a client never ending a chunked body never lets it do. (An
 * encoded body's limit is on its inflated bytes: body-parser's. On Fastify, its JSON parser
 * under `bodyLimit` does this.)
 */
export function jsonBodyCapStep(): (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void {
  return (req, res, next) => {
    if (!hasBody(req) || !JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) return next();
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== 'identity') return next();
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_JSON_BODY_BYTES)
      return answerTooLarge(req, res);
    // Counted beside the parser's own reading (both listen before the first chunk flows).
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= MAX_JSON_BODY_BYTES) return;
      req.off('data', onData);
      answerTooLarge(req, res);
    };
    req.on('data', onData);
    req.once('end', () => req.off('data', onData));
    next();
  };
}

/**
 * The Express adapter's step for a body that is not JSON, after the JSON parser: read under the
 * same 1 MiB cap and thrown away, marked in the request's state so RequestHygieneGuard answers
 * 415 after the guards (a missing key is reported first); a signed form (Slack's interactions,
 * `keepsRawForm`) is kept as bytes for its handler. Past the cap it answers 413 and closes the
 * connection at once, without the rest of the body (issue 34 item 4): body-parser's own reader
 * would wait for the client to finish sending, which a client never ending a chunked body never
 * does. (On Fastify, its `*` content-type parser under `bodyLimit` does this.)
 */
export function nonJsonBodyStep(): (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void {
  return (req, res, next) => {
    if (!hasBody(req) || JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) return next();
    const state = requestStateOf(req);
    const keep = keepsRawForm(pathOf(req), req.headers['content-type']);
    if (!keep) state.notJson = true;
    readCapped(req, MAX_JSON_BODY_BYTES, keep, (outcome, bytes) => {
      if (outcome === 'ok') {
        if (keep) state.rawBody = bytes;
        return next();
      }
      if (outcome === 'too-large') return answerTooLarge(req, res);
      sendError(res, 400, 'VALIDATION_FAILED', INCOMPLETE_BODY, state.id);
    });
  };
}

type ReadOutcome = 'ok' | 'too-large' | 'incomplete';

/**
 * Reads a request body to its end, counting its bytes: `too-large` as soon as a declared
 * Content-Length or the bytes received pass `limit` (reading stops there), `incomplete` when
 * the client stops sending. With `keep`, `done` gets the bytes with `ok` (else an empty buffer).
 */
function readCapped(
  req: IncomingMessage,
  limit: number,
  keep: boolean,
  done: (outcome: ReadOutcome, bytes: Buffer) => void,
): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return done('too-large', Buffer.alloc(0));
  let received = 0;
  let settled = false;
  const chunks: Buffer[] = [];
  const settle = (outcome: ReadOutcome) => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('aborted', onAborted);
    req.off('error', onAborted);
    if (outcome === 'too-large') req.pause();
    done(outcome, outcome === 'ok' ? Buffer.concat(chunks) : Buffer.alloc(0));
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) settle('too-large');
    else if (keep) chunks.push(chunk);
  };
  const onEnd = () => settle('ok');
  const onAborted = () => settle('incomplete');
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('error', onAborted);
}
