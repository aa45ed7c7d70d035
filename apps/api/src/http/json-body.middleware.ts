import type { IncomingMessage } from 'node:http';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ERROR_MESSAGES } from '@interlock/domain';
import { sendError } from './error-response.util';
import { jsonSizeProblem } from './json-limits.util';
import { pathOf } from './platform';
import { keepsRawForm } from './raw-form-routes';
import type { RequestState } from './request-state';

/** SPEC §10: JSON bodies are at most 1 MiB. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

const JSON_TYPES = ['application/json', 'application/*+json'];
const TOO_MANY_FIELDS = 'entity.too.many.fields';

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * Parses JSON bodies and answers parse errors before routing, with the SPEC §4 error body:
 * 413 over 1 MiB, 400 for malformed JSON (SPEC §5 lets these come before authentication), and
 * 400 for a body with too many fields (`jsonSizeProblem`: checked on the raw bytes in one pass,
 * before JSON.parse and the DTO machinery spend time on it). A
 * body that is not JSON is read and thrown away under the same 1 MiB cap (413 past it, issue 34
 * item 4), and marked in the request's state: RequestHygieneGuard answers 415 after the guards,
 * so a missing key or a key on a human route is reported first. A request without a body (no
 * Content-Length, or 0) passes with no Content-Type at all.
 */
export function jsonBodyStep(): (
  req: Request,
  res: Response,
  state: RequestState,
  next: NextFunction,
) => void {
  const parse = express.json({
    limit: MAX_JSON_BODY_BYTES,
    strict: false,
    type: JSON_TYPES,
    verify: (_req, _res, body) => {
      const problem = jsonSizeProblem(body);
      if (problem !== null) throw Object.assign(new Error(problem), { type: TOO_MANY_FIELDS });
    },
  });
  return (req, res, state, next) => {
    if (!hasBody(req)) return next();
    if (!req.is(JSON_TYPES)) {
      // A signed form (Slack's interactions) is kept as bytes for its handler to verify.
      const keep = keepsRawForm(pathOf(req), req.headers['content-type']);
      // Else drained (so the connection can be reused) under the JSON cap; refused after the guards.
      if (!keep) state.notJson = true;
      return discardBody(
        req,
        MAX_JSON_BODY_BYTES,
        (outcome, bytes) => {
          if (outcome === 'ok') {
            if (keep) state.rawBody = bytes;
            return next();
          }
          if (outcome === 'too-large') {
            res.setHeader('connection', 'close');
            return sendError(
              res,
              413,
              'PAYLOAD_TOO_LARGE',
              ERROR_MESSAGES.PAYLOAD_TOO_LARGE,
              state.id,
            );
          }
          sendError(
            res,
            400,
            'VALIDATION_FAILED',
            'body: the request body was incomplete.',
            state.id,
          );
        },
        keep,
      );
    }
    parse(req, res, (err?: unknown) => {
      if (err === undefined || err === null) return next();
      const type = (err as { type?: string }).type;
      if (type === TOO_MANY_FIELDS) {
        return sendError(res, 400, 'VALIDATION_FAILED', (err as Error).message, state.id);
      }
      if (type === 'entity.too.large') {
        res.setHeader('connection', 'close');
        return sendError(res, 413, 'PAYLOAD_TOO_LARGE', ERROR_MESSAGES.PAYLOAD_TOO_LARGE, state.id);
      }
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
        return sendError(
          res,
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          ERROR_MESSAGES.UNSUPPORTED_MEDIA_TYPE,
          state.id,
        );
      }
      if (type === 'request.aborted' || type === 'request.size.invalid') {
        return sendError(
          res,
          400,
          'VALIDATION_FAILED',
          'body: the request body was incomplete.',
          state.id,
        );
      }
      return sendError(res, 400, 'VALIDATION_FAILED', ERROR_MESSAGES.MALFORMED_JSON, state.id);
    });
  };
}

export type DiscardOutcome = 'ok' | 'too-large' | 'incomplete';

/**
 * Reads a request body to its end and throws it away, counting its bytes: `too-large` as soon as
 * a declared Content-Length or the bytes received pass `limit` (reading stops there; the caller
 * answers 413 and closes the connection), `incomplete` when the client stops sending. With
 * `keep`, `done` gets the bytes with `ok` (else an empty buffer).
 */
export function discardBody(
  req: IncomingMessage,
  limit: number,
  done: (outcome: DiscardOutcome, bytes: Buffer) => void,
  keep = false,
): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return done('too-large', Buffer.alloc(0));
  let received = 0;
  let settled = false;
  const chunks: Buffer[] = [];
  const settle = (outcome: DiscardOutcome) => {
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
