import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { DomainError, ERROR_MESSAGES, ErrorCode } from '@interlock/domain';
import { INCOMPLETE_BODY, TOO_MANY_FIELDS } from './body-parsing';
import { isDatabaseUnavailable } from './database-unavailable.util';
import { sendError } from './error-response.util';
import { nodeResponse, type HttpRequest } from './platform';
import { requestIdOf, requestStateOf } from './request-state';
import { requestLog } from '../logging/logger';
import { principalOf } from '../auth/principal';
import { ApiKeyBudgetService } from '../rate-limits/api-key-budget.service';
import { spendOrRefuse } from '../rate-limits/budget-answer';
import { takeDeferredSpending } from '../rate-limits/held-wait.decorator';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'SIGN_IN_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The one place errors become HTTP: turns every exception — the domain's `DomainError` first,
 * then Nest's own HTTP exceptions (routing, body parsing) — into the SPEC §4 body. Unexpected
 * errors answer 500 without detail and are logged once, with the request id; a lost database
 * answers 503.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly budget: ApiKeyBudgetService) {}

  catch(error: unknown, host: ArgumentsHost): void {
    // The request and response as Nest's HTTP arguments 0 and 1: `switchToHttp()` makes an
    // object and three closures on every call, and a refusal (the malformed key's 401) should
    // cost no more than an answer (issue 28).
    const req = host.getArgByIndex<HttpRequest>(0);
    const res = host.getArgByIndex<object>(1);
    const exception = this.spendDeferred(req, res, error);
    if (nodeResponse(res).headersSent) {
      // A streaming response failed part-way: nothing can be sent, only logged. (A body answered
      // 413 while it arrived fails its parser when the connection closes: that is no error.)
      if (!requestStateOf(req).answeredTooLarge)
        requestLog(req).error({ err: exception }, 'error after the response started');
      nodeResponse(res).end();
      return;
    }

    if (exception instanceof DomainError) {
      // Our conflicts are final (decided, ended, taken): tell SDKs not to retry them.
      const headers =
        exception.status === 409
          ? { 'x-should-retry': 'false', ...exception.headers }
          : exception.headers;
      sendError(
        res,
        exception.status,
        exception.code,
        exception.message,
        requestIdOf(req),
        headers,
      );
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = CODE_BY_STATUS[status];
      if (status === 413) {
        // Fastify's bodyLimit (the rest is not read) or Express's body parser.
        sendError(
          res,
          413,
          'PAYLOAD_TOO_LARGE',
          ERROR_MESSAGES.PAYLOAD_TOO_LARGE,
          requestIdOf(req),
          { connection: 'close' },
        );
        return;
      }
      if (status === 415) {
        // Express's body parser: a charset other than UTF-*, or an unknown Content-Encoding.
        sendError(
          res,
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          ERROR_MESSAGES.UNSUPPORTED_MEDIA_TYPE,
          requestIdOf(req),
        );
        return;
      }
      const bodyProblem = bodyParseProblem(exception);
      if (bodyProblem !== undefined) {
        sendError(res, 400, 'VALIDATION_FAILED', bodyProblem, requestIdOf(req));
        return;
      }
      if (code !== undefined) {
        const message =
          code === 'NOT_FOUND' ? ERROR_MESSAGES.NOT_FOUND : httpExceptionMessage(exception);
        sendError(res, status, code, message, requestIdOf(req));
        return;
      }
    }
    if (isDataException(exception)) {
      // A backstop: input is checked before it reaches the database; should any slip through,
      // Postgres's refusal is still the caller's bad input, not a server error.
      requestLog(req).warn({ err: exception }, 'input refused by the database');
      sendError(
        res,
        400,
        'VALIDATION_FAILED',
        'body: a value is malformed or out of range.',
        requestIdOf(req),
      );
      return;
    }
    if (isDatabaseUnavailable(exception)) {
      requestLog(req).warn({ err: exception }, 'database unavailable');
      sendError(
        res,
        503,
        'SERVICE_UNAVAILABLE',
        ERROR_MESSAGES.SERVICE_UNAVAILABLE,
        requestIdOf(req),
        {
          'retry-after': '5',
        },
      );
      return;
    }
    requestLog(req).error({ err: exception }, 'unhandled exception');
    sendError(res, 500, 'INTERNAL_ERROR', ERROR_MESSAGES.INTERNAL_ERROR, requestIdOf(req));
  }

  /**
   * A key's wait whose spending the guard left to its handler (SPEC §8e), failed before the handler
   * took it (a pipe, a later guard, the handler's own checks: a bad id, an unknown include): it
   * spends its one request here, as any request does — or, past the budget, is answered 429 as the
   * guard would have answered it before those checks.
   */
  private spendDeferred(req: HttpRequest, res: object, exception: unknown): unknown {
    if (!takeDeferredSpending(req) || nodeResponse(res).headersSent) return exception;
    const principal = principalOf(req);
    if (principal.kind !== 'api_key') return exception;
    try {
      spendOrRefuse(this.budget, principal.organisationId, res);
    } catch (refusal) {
      return refusal;
    }
    return exception;
  }
}

/**
 * The SPEC §4 text of a 400 from reading a body, or undefined for any other exception. The
 * Express adapter hands body-parser's errors (http-errors, with `expose` and a `type`) to the
 * exception layer as an HttpException with the error as its cause: past the field limits →
 * that limit's message; a body shorter than its Content-Length or cut off → incomplete;
 * anything else it could not read (malformed JSON, bytes that do not inflate) → not valid JSON.
 * Fastify's own refusal of a wrong Content-Length is incomplete too. (413 and 415 need no text
 * of theirs: their status says it.)
 */
function bodyParseProblem(exception: HttpException): string | undefined {
  if (exception.getStatus() >= 500) return undefined;
  const cause = exception.cause as { code?: unknown; type?: unknown; expose?: unknown } | undefined;
  if (cause === undefined || cause === null) return undefined;
  if (cause.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return INCOMPLETE_BODY;
  // Only body-parser's errors are http-errors on this path (Express's own URIError is not).
  if (typeof cause.expose !== 'boolean') return undefined;
  if (cause.type === TOO_MANY_FIELDS) return (cause as { message: string }).message;
  if (cause.type === 'request.aborted' || cause.type === 'request.size.invalid')
    return INCOMPLETE_BODY;
  return ERROR_MESSAGES.MALFORMED_JSON;
}

/** Postgres data exceptions about a value's form (bad encoding, NUL, out of range, syntax). */
const DATA_EXCEPTIONS = new Set(['22021', '22P05', '22P02', '22003', '22007', '22008']);

function isDataException(exception: unknown): boolean {
  const code = (exception as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  return typeof code === 'string' && DATA_EXCEPTIONS.has(code);
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}
