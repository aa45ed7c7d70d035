import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ERROR_MESSAGES } from '@interlock/domain';
import { sendError } from './error-response.util';
import { jsonSizeProblem } from './json-limits.util';
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
 * body that is not JSON is only marked here (in the request's state): RequestHygieneGuard answers 415 after the
 * guards, so a missing key or a key on a human route is reported first. A request without a
 * body (no Content-Length, or 0) passes with no Content-Type at all.
 */
export function jsonBodyStep(): (req: Request, res: Response, state: RequestState, next: NextFunction) => void {
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
      // Drain what was sent so the connection can be reused; refused after the guards.
      req.resume();
      state.notJson = true;
      return next();
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
        return sendError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', ERROR_MESSAGES.UNSUPPORTED_MEDIA_TYPE, state.id);
      }
      if (type === 'request.aborted' || type === 'request.size.invalid') {
        return sendError(res, 400, 'VALIDATION_FAILED', 'body: the request body was incomplete.', state.id);
      }
      return sendError(res, 400, 'VALIDATION_FAILED', ERROR_MESSAGES.MALFORMED_JSON, state.id);
    });
  };
}
