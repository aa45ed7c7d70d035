import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ERROR_MESSAGES } from '@interlock/domain';
import type { DashboardResponder } from './dashboard.middleware';
import { isServicePath } from './dashboard.middleware';
import { advertiseKeepAlive, connectionHeaderStep } from '../health/http-drain';
import { takeAnswer } from './answer-headers';
import { sendError } from './error-response.util';
import { jsonSizeProblem } from './json-limits.util';
import { JSON_CONTENT_TYPE, MAX_JSON_BODY_BYTES } from './body-parsing';
import { pathOf } from './platform';
import { keepsRawForm } from './raw-form-routes';
import type { RequestState } from './request-state';
import { requestStateOf } from './request-state';
import { assignRequestId } from './request-id.middleware';

export interface FastifyFrontDoorSteps {
  /** Starts the request's log line (`httpLogger`). */
  log: (req: IncomingMessage, res: ServerResponse, state: RequestState) => void;
  /**
   * Answers 405 for a method the path does not serve (`methodNotAllowedGate`), told the pattern
   * Fastify's router matched (null for none); true when it answered.
   */
  methodGate: (req: IncomingMessage, res: ServerResponse, routed: string | null) => boolean;
  /** The dashboard, for paths the service does not answer itself. */
  dashboard: DashboardResponder;
  /**
   * Routes whose answer never varies (`/health/live`: path → its JSON text), answered by
   * Fastify alone (`answerFixedRoutes`).
   */
  fixedAnswers?: ReadonlyMap<string, string>;
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/**
 * The Fastify adapter's front door: the steps every request takes before its route (on Express
 * the first middleware, `createApp`), as one `onRequest` hook (request id and state, the log line, 405, the
 * dashboard), and the body as Fastify's content-type parsers, under Fastify's `bodyLimit`
 * (1 MiB, 413 past it): JSON with the same checks and texts (`jsonSizeProblem` on the raw
 * bytes, then `JSON.parse`), and any other body read under the same cap, thrown away and
 * marked, so RequestHygieneGuard answers 415 after the guards. Fastify routes before its hooks,
 * so the route's pattern is known here (the log line's `route`, even for a refused request).
 */
export function installFastifyFrontDoor(
  fastify: FastifyInstance,
  steps: FastifyFrontDoorSteps,
): void {
  const { log, methodGate, dashboard } = steps;
  const connectionHeader = connectionHeaderStep(fastify.server);
  if (steps.fixedAnswers !== undefined) answerFixedRoutes(fastify, steps.fixedAnswers);
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const req = request.raw;
    const res = reply.raw;
    // The answer's headers go on the reply (the state keeps it for the others'): Node's response
    // gets none before Fastify writes the head, which Node then writes in one pass (issue 28).
    const state = assignRequestId(req, res, reply);
    connectionHeader(reply);
    state.route = request.routeOptions.url;
    log(req, res, state);
    // The 405 answers through `sendError`, which finds the reply still to answer and writes the
    // head from its headers (`endOnReply`).
    if (methodGate(req, res, request.is404 ? null : (state.route ?? null))) return;
    if (!isServicePath(pathOf(req))) {
      const answer = dashboard(req, res);
      if (answer !== undefined) {
        takeAnswer(reply);
        answer();
        return;
      }
    }
    done();
  });

  // A GET's body is read like any other (Fastify would leave it unread): a malformed or non-JSON
  // one is refused as on Express, and a JSON one passes the same hygiene checks.
  fastify.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    JSON_CONTENT_TYPE,
    { parseAs: 'buffer', bodyLimit: MAX_JSON_BODY_BYTES },
    (request, body, done) => {
      const contentType = request.headers['content-type'] ?? '';
      const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
      if (charset !== undefined && !charset.startsWith('utf-'))
        return done(DomainError.of('UNSUPPORTED_MEDIA_TYPE'), undefined);
      const bytes = decoded(request, body as Buffer);
      if (bytes === 'unsupported') return done(DomainError.of('UNSUPPORTED_MEDIA_TYPE'), undefined);
      if (bytes === 'too-large') return done(DomainError.of('PAYLOAD_TOO_LARGE'), undefined);
      if (bytes === 'malformed')
        return done(new DomainError('VALIDATION_FAILED', ERROR_MESSAGES.MALFORMED_JSON), undefined);
      // No bytes: no body (Content-Length: 0), or an empty chunked one, which Express reads as {}.
      if (bytes.length === 0)
        return done(null, request.headers['transfer-encoding'] === undefined ? undefined : {});
      const problem = jsonSizeProblem(bytes);
      if (problem !== null) return done(new DomainError('VALIDATION_FAILED', problem), undefined);
      try {
        done(null, JSON.parse(bytes.toString('utf8')));
      } catch {
        done(new DomainError('VALIDATION_FAILED', ERROR_MESSAGES.MALFORMED_JSON), undefined);
      }
    },
  );
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: MAX_JSON_BODY_BYTES },
    (request, body, done) => {
      // A signed form (Slack's interactions) is kept as bytes for its handler to verify.
      if (keepsRawForm(pathOf(request.raw), request.headers['content-type'])) {
        requestStateOf(request.raw).rawBody = body as Buffer;
        return done(null, undefined);
      }
      // Read under the cap and thrown away; refused after the guards (issue 34 item 4).
      if ((body as Buffer).length > 0 || request.headers['transfer-encoding'] !== undefined)
        requestStateOf(request.raw).notJson = true;
      done(null, undefined);
    },
  );
}

/**
 * Routes whose answer never varies, answered by Fastify alone: a liveness probe (`GET
 * /health/live`, every few seconds from every balancer and orchestrator) pays for Fastify's
 * router and the front door (request id, log line, 405) but not for Nest's route pipeline — its
 * execution context, the global guard's six checks, the pipes, the response controller and the
 * adapter's reply (issue 28: `/health/live` at ≥ 0.80 of bare Fastify's `/ping`).
 * The route stays Nest's own (its controller declares it for the contract, and Express serves
 * it): its handler is wrapped as Fastify registers it. Only a request the pipeline could not
 * answer otherwise is answered here: exactly the path, no query, no body (a body or a query with
 * text Postgres cannot store is refused by the guard, so such a request takes Nest's way).
 */
export function answerFixedRoutes(
  fastify: FastifyInstance,
  answers: ReadonlyMap<string, string>,
): void {
  fastify.addHook('onRoute', (route) => {
    const text = answers.get(route.url ?? route.path);
    if (text === undefined) return;
    const path = route.url ?? route.path;
    const nest = route.handler;
    route.handler = function fixedAnswer(this: FastifyInstance, request, reply) {
      if (
        request.raw.url === path &&
        request.body === undefined &&
        !requestStateOf(request.raw).notJson
      ) {
        return reply.header('content-type', JSON_UTF8).send(text);
      }
      return nest.call(this, request, reply);
    };
  });
}

const JSON_UTF8 = 'application/json; charset=utf-8';

const INFLATE: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * A JSON body's bytes after its `Content-Encoding` (none, `identity`, gzip, deflate or br, as
 * Express's JSON parser takes them), inflated to at most 1 MiB: past it `too-large` (413, the
 * limit is on the JSON, not on the bytes sent); bytes that do not inflate are malformed (400);
 * any other encoding is `unsupported` (415).
 */
function decoded(
  request: FastifyRequest,
  bytes: Buffer,
): Buffer | 'unsupported' | 'too-large' | 'malformed' {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === 'identity') return bytes;
  const inflate = INFLATE[encoding];
  if (inflate === undefined) return 'unsupported';
  try {
    return inflate(bytes, { maxOutputLength: MAX_JSON_BODY_BYTES });
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'malformed';
  }
}

/**
 * Fastify's answer to a request its router refused before any hook ran (a malformed URL: 400;
 * a route parameter over `maxParamLength`: 414), with the SPEC §4 body, a request id, the
 * connection's header the hook would have set (`Keep-Alive: timeout=5`) and, as every request,
 * its log line (`log`, the hook's `FastifyFrontDoorSteps.log`).
 */
export function fastifyFrameworkErrors(log: FastifyFrontDoorSteps['log']) {
  return (
    error: Error & { statusCode?: number },
    request: FastifyRequest,
    reply: FastifyReply,
  ): void => {
    let state = requestStateOf(request.raw);
    if (state.id === '') {
      state = assignRequestId(request.raw, reply.raw, reply);
      log(request.raw, reply.raw, state);
    }
    advertiseKeepAlive(request.server.server, reply);
    const status = error.statusCode ?? 400;
    if (status === 414) {
      sendError(reply, 404, 'NOT_FOUND', ERROR_MESSAGES.NOT_FOUND, state.id);
      return;
    }
    sendError(reply, 400, 'VALIDATION_FAILED', 'path: is not a valid URL.', state.id);
  };
}
