// Typed errors. An `APIError` carries the server's SPEC §4 body as it came: `message` is exactly
// the server's `message`, `code` its stable `code`, so callers can switch on either.

/** Every error the SDK throws derives from this one. */
export class InterlockError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

import type { ErrorCode } from '../generated';

/** The SPEC §4 error body, as the contract describes it. */
export type { ErrorBody } from '../generated';

/** An error answered by the service, or a failure to reach it (then `status` is undefined). */
export class APIError extends InterlockError {
  /** The HTTP status, undefined when no response arrived. */
  readonly status: number | undefined;
  /**
   * The stable error code of SPEC §4 (`INVALID_API_KEY`, `PLAN_REQUIRED`…), typed as the contract's
   * `ErrorCode` union. A code a newer service adds is passed through as it came.
   */
  readonly code: ErrorCode | undefined;
  /** The service's request id: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The parsed response body (the SPEC §4 error body), or its text when it was not JSON. */
  readonly body: unknown;
  readonly headers: Headers | undefined;

  constructor(
    status: number | undefined,
    body: unknown,
    message: string,
    headers: Headers | undefined,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = status;
    this.body = body;
    this.headers = headers;
    const fields = isRecord(body) ? body : {};
    this.code = typeof fields['code'] === 'string' ? (fields['code'] as ErrorCode) : undefined;
    this.requestId =
      (typeof fields['requestId'] === 'string' ? fields['requestId'] : undefined) ??
      headers?.get('x-request-id') ??
      undefined;
  }

  /** The subclass for a status (and, for 402, the code). */
  static generate(
    status: number,
    body: unknown,
    headers: Headers,
    url?: string,
    method?: string,
  ): APIError {
    const message =
      messageOf(status, body) +
      (status === 404 && url !== undefined ? doubledApiHint(url, method ?? 'GET') : '');
    const code = isRecord(body) ? body['code'] : undefined;
    if (status >= 300 && status < 400) return new RedirectError(status, body, headers);
    if (status === 400) return new BadRequestError(status, body, message, headers);
    if (status === 401) return new AuthenticationError(status, body, message, headers);
    if (status === 402) {
      return code === 'PLAN_REQUIRED'
        ? new PlanRequiredError(status, body, message, headers)
        : new PaymentRequiredError(status, body, message, headers);
    }
    if (status === 403) return new PermissionDeniedError(status, body, message, headers);
    if (status === 404) return new NotFoundError(status, body, message, headers);
    if (status === 409) return new ConflictError(status, body, message, headers);
    if (status === 422) return new UnprocessableEntityError(status, body, message, headers);
    if (status === 429) return new RateLimitError(status, body, message, headers);
    if (status >= 500) return new InternalServerError(status, body, message, headers);
    return new APIError(status, body, message, headers);
  }
}

/** 400: a malformed body, cursor, timestamp or filter (`VALIDATION_FAILED`). */
export class BadRequestError extends APIError {}
/** 401: missing, invalid or expired API key. */
export class AuthenticationError extends APIError {}
/** 402: an allowance is spent, or the plan does not include the feature. */
export class PaymentRequiredError extends APIError {}
/** 402 `PLAN_REQUIRED`: the audit log API needs the Pro plan. */
export class PlanRequiredError extends PaymentRequiredError {}
/** 403: e.g. a key on a human-only endpoint (`HUMANS_ONLY`). */
export class PermissionDeniedError extends APIError {}
/** 404: unknown id, or one of another organisation. */
export class NotFoundError extends APIError {}
export class ConflictError extends APIError {}
export class UnprocessableEntityError extends APIError {}
export class RateLimitError extends APIError {}
/** 5xx. */
export class InternalServerError extends APIError {}

/**
 * 3xx: the service (or something in front of it) answered with a redirect. The SDK never follows
 * one — a redirect could carry the key and the body to another origin — so `baseURL` must be
 * the service's own address. `location` is where it pointed.
 */
export class RedirectError extends APIError {
  readonly location: string | null;

  /** `status` is undefined where the runtime hides the redirect (a browser's opaque redirect). */
  constructor(status: number | undefined, body: unknown, headers: Headers | undefined) {
    const location = headers?.get('location') ?? null;
    const answered = status === undefined ? 'with a redirect' : `${status} with a redirect`;
    super(
      status,
      body,
      `The service answered ${answered} to ${location ?? 'an unknown location'}; the SDK does not follow redirects (they could carry the API key elsewhere): set baseURL to the service's address.`,
      headers,
    );
    this.location = location;
  }
}

/** The service could not be reached, or the connection broke before a response. */
export class APIConnectionError extends APIError {
  constructor(options: { message?: string; cause?: unknown } = {}) {
    super(undefined, undefined, options.message ?? 'Connection error.', undefined, options.cause);
  }
}

/** No response within the request's `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  constructor(options: { message?: string; cause?: unknown } = {}) {
    super({ message: options.message ?? 'Request timed out.', cause: options.cause });
  }
}

/** The caller's `signal` aborted the request. */
export class APIUserAbortError extends APIError {
  constructor(options: { message?: string; cause?: unknown } = {}) {
    super(
      undefined,
      undefined,
      options.message ?? 'Request was aborted.',
      undefined,
      options.cause,
    );
  }
}

/** `interrupts.waitForAnswer` gave up before the interrupt was answered. */
export class WaitTimeoutError extends InterlockError {
  constructor(
    readonly interruptId: string,
    readonly timeoutMs: number,
  ) {
    super(`Interrupt ${interruptId} was not answered within ${timeoutMs} ms.`);
  }
}

function messageOf(status: number, body: unknown): string {
  if (isRecord(body) && typeof body['message'] === 'string') return body['message'];
  if (typeof body === 'string' && body.trim() !== '')
    return `${status} ${body.trim().slice(0, 500)}`;
  return `${status} status code (no body)`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For a 404 of a path under `/api/api/`: the base URL ended in `/api`; say so, and the fix. */
function doubledApiHint(url: string, method: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  const at = parsed.pathname.indexOf('/api/api/');
  if (at < 0) return '';
  const base = `${parsed.origin}${parsed.pathname.slice(0, at + 4)}`;
  return (
    ` (${method} ${parsed.origin}${parsed.pathname}: the base URL ${base} ends in /api, but the SDK adds /api itself; ` +
    `set baseURL (or INTERLOCK_BASE_URL) to ${base.slice(0, -'/api'.length)})`
  );
}

/** What `APIConnectionError` says: the URL tried, the cause (the operating system's, when fetch gives one), what to check. */
export function connectionErrorMessage(url: string, cause: unknown): string {
  let reason = 'unknown cause';
  // fetch wraps the socket's error: `TypeError: fetch failed` with `cause: Error: connect ECONNREFUSED …`.
  for (let c: unknown = cause, depth = 0; c !== undefined && c !== null && depth < 5; depth++) {
    // Duck-typed: the error may come from another realm (a test runner's, a polyfill's fetch).
    if (
      isRecord(c) ||
      (typeof c === 'object' && typeof (c as { message?: unknown }).message === 'string')
    ) {
      const {
        code,
        message,
        cause: next,
      } = c as { code?: unknown; message?: unknown; cause?: unknown };
      const text = typeof message === 'string' && message !== '' ? message : String(c);
      reason = typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
      c = next;
    } else {
      reason = String(c);
      break;
    }
  }
  let where = url;
  let origin = url;
  try {
    const parsed = new URL(url);
    where = `${parsed.origin}${parsed.pathname}`;
    origin = parsed.origin;
  } catch {
    // not a URL: quoted as it is
  }
  return (
    `Connection error: could not reach ${where} (${reason}). Check that Interlock is running at ${origin}, ` +
    'or set baseURL (or INTERLOCK_BASE_URL) to where it runs.'
  );
}
