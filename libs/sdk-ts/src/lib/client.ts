import { APIPromise, type APIResponse } from './api-promise';
import { VERSION } from './version';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  connectionErrorMessage,
  RedirectError,
  InterlockError,
} from './errors';
import { CursorPage, PagePromise } from './pagination';
import {
  consoleLogger,
  enabled,
  type Logger,
  type LogLevel,
  parseLogLevel,
  redactHeaders,
} from './logging';
import type { Fetch, RequestOptions } from './request-options';
import { retryDelayMs, shouldRetryResponse } from './retry';
import { isBrowser, readEnv, sleep, uuid4 } from './runtime';
import { askFor, type AskOptions, type AskSchema } from './ask';
import { AuditLog } from './resources/audit-log';
import { Interrupts } from './resources/interrupts';
import { Sessions } from './resources/sessions';
import type { Whoami } from './types';
import { Webhooks } from './webhooks';

export const DEFAULT_BASE_URL = 'http://localhost:3000';
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

export interface ClientOptions {
  /** The organisation API key. Defaults to `process.env.INTERLOCK_API_KEY`. */
  apiKey?: string;
  /** The service's origin (paths start with `/api`). Defaults to `INTERLOCK_BASE_URL`, then http://localhost:3000. */
  baseURL?: string;
  /** Milliseconds to wait for each attempt's response. Default 60 000. */
  timeout?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** A `fetch` implementation; defaults to the global one. */
  fetch?: Fetch;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
  /** Query parameters sent with every request (e.g. for a gateway in front of the service). */
  defaultQuery?: Record<string, string | undefined>;
  /** `debug` logs every request and response (secrets redacted). Default: `INTERLOCK_LOG`, else `off`. */
  logLevel?: LogLevel;
  /** Where log lines go. Default: the console. */
  logger?: Logger;
  /** The signing secret `webhooks.verify` / `unwrap` use by default. Defaults to `INTERLOCK_WEBHOOK_SECRET`. */
  webhookSecret?: string;
  /**
   * API keys are server-side secrets: the client refuses to run in a browser, where the key would
   * be visible to anyone using the page, unless this is true.
   */
  dangerouslyAllowBrowser?: boolean;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | Date | null | undefined;

export interface RequestSpec {
  method: Method;
  path: string;
  query?: Record<string, QueryValue> | object;
  body?: unknown;
  options?: RequestOptions;
}

type Attempt<T> =
  | { ok: true; value: APIResponse<T> }
  | { ok: false; error: InterlockError; retryable: boolean; headers?: Headers };

/** The Interlock API client. */
export class Interlock {
  readonly apiKey: string;
  readonly baseURL: string;
  readonly timeout: number;
  readonly maxRetries: number;

  readonly interrupts: Interrupts;
  readonly sessions: Sessions;
  readonly auditLog: AuditLog;
  /** Verifies the webhooks Interlock sends (`verify`, `unwrap`). */
  readonly webhooks: Webhooks;

  readonly logLevel: LogLevel;

  private readonly fetchImpl: Fetch;
  private readonly defaultHeaders: Record<string, string>;
  private readonly defaultQuery: Record<string, string | undefined>;
  private readonly logger: Logger;
  private readonly options: ClientOptions;

  constructor(options: ClientOptions = {}) {
    const {
      apiKey = readEnv('INTERLOCK_API_KEY'),
      baseURL = readEnv('INTERLOCK_BASE_URL'),
      timeout = DEFAULT_TIMEOUT_MS,
      maxRetries = DEFAULT_MAX_RETRIES,
      fetch,
      defaultHeaders = {},
      defaultQuery = {},
      logLevel,
      logger = consoleLogger,
      dangerouslyAllowBrowser = false,
    } = options;
    if (!dangerouslyAllowBrowser && isBrowser()) {
      throw new InterlockError(
        'The Interlock client refuses to run in a browser: an API key in a web page is visible to ' +
          'everyone who loads it. Call Interlock from your server, or pass ' +
          '`dangerouslyAllowBrowser: true` if you understand the risk.',
      );
    }
    if (apiKey === undefined || apiKey === '') {
      throw new InterlockError(
        'No API key: set the INTERLOCK_API_KEY environment variable or pass `apiKey` ' +
          "(new Interlock({ apiKey: 'ilk_…' })).",
      );
    }
    if (!Number.isFinite(timeout) || timeout <= 0) {
      throw new InterlockError(
        `timeout must be a positive number of milliseconds, got ${timeout}.`,
      );
    }
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new InterlockError(`maxRetries must be a non-negative integer, got ${maxRetries}.`);
    }
    if (fetch === undefined && typeof globalThis.fetch !== 'function') {
      throw new InterlockError(
        'No global fetch in this runtime (Node 18 or later has one): pass `fetch`.',
      );
    }
    this.apiKey = apiKey;
    this.baseURL = (baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    // Called unbound: some fetch implementations throw "Illegal invocation" otherwise.
    this.fetchImpl = fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.defaultHeaders = defaultHeaders;
    this.defaultQuery = defaultQuery;
    const envLevel = readEnv('INTERLOCK_LOG');
    this.logLevel = logLevel ?? parseLogLevel(envLevel) ?? 'off';
    if (logLevel === undefined && envLevel !== undefined && parseLogLevel(envLevel) === undefined) {
      logger.warn(
        `[interlock] INTERLOCK_LOG=${envLevel} is not a log level (off, error, warn, info, debug); logging is off.`,
      );
    }
    this.logger = logger;
    this.options = { ...options, apiKey, baseURL: this.baseURL, timeout, maxRetries };

    this.interrupts = new Interrupts(this);
    this.sessions = new Sessions(this);
    this.auditLog = new AuditLog(this);
    this.webhooks = new Webhooks({ secret: options.webhookSecret });
  }

  /**
   * A copy of this client with some options changed (openai's `withOptions`): the same key and
   * settings unless overridden, e.g. `client.withOptions({ timeout: 5_000, maxRetries: 0 })`.
   */
  withOptions(options: Partial<ClientOptions>): Interlock {
    return new Interlock({ ...this.options, ...options });
  }

  /**
   * Typed human input: asks people for an answer shaped by `schema` (a zod object) and returns it
   * parsed — `const plan = await interlock.ask('Plan the rollout', z.object({region: z.enum([...])}))`.
   * The dashboard shows the schema as a form; the service validates the answer against it. Throws
   * `AnswerDeclinedError` when a person declines (with their message) or the request ends unanswered.
   */
  ask<T>(title: string, schema: AskSchema<T>, options?: AskOptions): Promise<T> {
    return askFor(this, title, schema, options);
  }

  /** Which key this is, for which organisation, on which plan. */
  whoami(options?: RequestOptions): APIPromise<Whoami> {
    return this.get<Whoami>('/api/whoami', { options });
  }

  /** A GET to any path of the API (for endpoints this SDK does not wrap yet). */
  get<T = unknown>(
    path: string,
    spec: Omit<RequestSpec, 'method' | 'path' | 'body'> = {},
  ): APIPromise<T> {
    return this.request<T>({ ...spec, method: 'GET', path });
  }

  /** A POST to any path of the API, with a JSON body when one is given (and an Idempotency-Key). */
  post<T = unknown>(path: string, spec: Omit<RequestSpec, 'method' | 'path'> = {}): APIPromise<T> {
    return this.request<T>({ ...spec, method: 'POST', path });
  }

  /** A PUT to any path of the API. */
  put<T = unknown>(path: string, spec: Omit<RequestSpec, 'method' | 'path'> = {}): APIPromise<T> {
    return this.request<T>({ ...spec, method: 'PUT', path });
  }

  /** A PATCH to any path of the API. */
  patch<T = unknown>(path: string, spec: Omit<RequestSpec, 'method' | 'path'> = {}): APIPromise<T> {
    return this.request<T>({ ...spec, method: 'PATCH', path });
  }

  /** A DELETE to any path of the API. */
  delete<T = unknown>(
    path: string,
    spec: Omit<RequestSpec, 'method' | 'path'> = {},
  ): APIPromise<T> {
    return this.request<T>({ ...spec, method: 'DELETE', path });
  }

  /** A cursor-paginated GET: `items` picks the page's items out of its body. */
  getList<Item, Body extends { nextCursor?: string | null }>(
    path: string,
    query: object,
    items: (body: Body) => Item[],
    options?: RequestOptions,
  ): PagePromise<Item> {
    const fetchPage = async (cursor?: string): Promise<CursorPage<Item>> => {
      const pageQuery = cursor === undefined ? query : { ...query, cursor };
      const body = await this.get<Body>(path, { query: pageQuery, options });
      return new CursorPage(items(body) ?? [], body.nextCursor ?? null, (next) => fetchPage(next));
    };
    return new PagePromise(() => fetchPage());
  }

  /** Sends one call, retrying as RequestOptions and the client allow. Nothing is sent until it is awaited. */
  request<T>(spec: RequestSpec): APIPromise<T> {
    return new APIPromise<T>(() => this.send<T>(spec));
  }

  private async send<T>(spec: RequestSpec): Promise<APIResponse<T>> {
    const options = spec.options ?? {};
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    const url = this.buildURL(spec.path, {
      ...this.defaultQuery,
      ...(spec.query ?? {}),
      ...(options.query ?? {}),
    });
    const payload = mergeBody(spec.method, spec.body, options.body);
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    // One key per call, reused by every retry, so the service can recognise a repeat.
    const idempotencyKey = spec.method === 'POST' ? (options.idempotencyKey ?? uuid4()) : undefined;
    const headers = this.buildHeaders(options.headers, body !== undefined, idempotencyKey);

    for (let retriesTaken = 0; ; retriesTaken++) {
      if (enabled(this.logLevel, 'debug')) {
        this.logger.debug(`[interlock] ${spec.method} ${url} (attempt ${retriesTaken + 1})`, {
          headers: redactHeaders(headers),
          bodyBytes: body?.length ?? 0,
        });
      }
      const started = Date.now();
      const attempt = await this.attempt<T>(
        spec.method,
        url,
        headers,
        body,
        timeout,
        options.signal,
      );
      if (attempt.ok) {
        if (enabled(this.logLevel, 'debug')) {
          const { response, requestId } = attempt.value;
          this.logger.debug(
            `[interlock] ${spec.method} ${url} → ${response.status} in ${Date.now() - started} ms`,
            {
              requestId,
              headers: redactHeaders(response.headers),
            },
          );
        }
        return attempt.value;
      }
      const retrying = attempt.retryable && retriesTaken < maxRetries;
      if (enabled(this.logLevel, retrying ? 'info' : 'debug')) {
        const status =
          attempt.error instanceof APIError ? (attempt.error.status ?? 'no response') : 'error';
        const log = retrying ? this.logger.info : this.logger.debug;
        log.call(
          this.logger,
          `[interlock] ${spec.method} ${url} → ${status}: ${attempt.error.message}${retrying ? ' (retrying)' : ''}`,
          {
            requestId: attempt.error instanceof APIError ? attempt.error.requestId : undefined,
          },
        );
      }
      if (!retrying) throw attempt.error;
      try {
        await sleep(retryDelayMs(retriesTaken, attempt.headers), options.signal);
      } catch (cause) {
        throw new APIUserAbortError({ cause });
      }
    }
  }

  private async attempt<T>(
    method: Method,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<Attempt<T>> {
    if (signal?.aborted) return { ok: false, error: new APIUserAbortError(), retryable: false };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let status: number;
      let statusText: string;
      let responseHeaders: Headers;
      let text: string;
      try {
        // Never follow a redirect: fetch would resend x-api-key (and the body) to wherever it points.
        const response = await this.fetchImpl(url, {
          method,
          headers,
          body,
          signal: controller.signal,
          redirect: 'manual',
        });
        if (response.type === 'opaqueredirect') {
          return {
            ok: false,
            error: new RedirectError(undefined, undefined, undefined),
            retryable: false,
          };
        }
        status = response.status;
        statusText = response.statusText;
        responseHeaders = response.headers;
        // Read under the same timeout: a stalled body is as bad as a stalled response.
        text = await response.text();
      } catch (cause) {
        if (signal?.aborted)
          return { ok: false, error: new APIUserAbortError({ cause }), retryable: false };
        if (timedOut)
          return { ok: false, error: new APIConnectionTimeoutError({ cause }), retryable: true };
        return {
          ok: false,
          error: new APIConnectionError({ cause, message: connectionErrorMessage(url, cause) }),
          retryable: true,
        };
      }
      const requestId = responseHeaders.get('x-request-id');
      // The body is read (retries need it): hand out a Response that can be read again.
      const response = new Response(status === 204 || status === 304 || text === '' ? null : text, {
        status,
        statusText,
        headers: responseHeaders,
      });
      if (status < 200 || status >= 300) {
        return {
          ok: false,
          error: APIError.generate(status, parseBody(text), responseHeaders, url, method),
          retryable: status >= 400 && shouldRetryResponse(status, responseHeaders),
          headers: responseHeaders,
        };
      }
      if (text === '') return { ok: true, value: { response, data: undefined as T, requestId } };
      try {
        return { ok: true, value: { response, data: JSON.parse(text) as T, requestId } };
      } catch (cause) {
        const error = new APIError(
          status,
          text,
          `${status} response was not valid JSON.`,
          responseHeaders,
          cause,
        );
        return { ok: false, error, retryable: false };
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private buildURL(path: string, query: object): string {
    const url = `${this.baseURL}${path.startsWith('/') ? path : `/${path}`}`;
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query) as [string, QueryValue][]) {
      if (value === undefined || value === null) continue;
      search.append(name, value instanceof Date ? value.toISOString() : String(value));
    }
    const qs = search.toString();
    return qs === '' ? url : `${url}?${qs}`;
  }

  private buildHeaders(
    extra: RequestOptions['headers'],
    hasBody: boolean,
    idempotencyKey: string | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `interlock-sdk-ts/${VERSION}`,
      'x-interlock-sdk': `ts/${VERSION}`,
      // The key travels in x-api-key only (SPEC §3): never as Authorization.
      'x-api-key': this.apiKey,
    };
    if (hasBody) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    for (const [name, value] of Object.entries({ ...this.defaultHeaders, ...extra })) {
      if (value === null) delete headers[name.toLowerCase()];
      else if (value !== undefined) headers[name.toLowerCase()] = value;
    }
    return headers;
  }
}

/** The call's body with the caller's extra fields (openai's `extra_body`) on top. */
function mergeBody(
  method: Method,
  body: unknown,
  extra: Record<string, unknown> | undefined,
): unknown {
  if (extra === undefined) return body;
  // fetch refuses a GET with a body; say so in our words rather than its TypeError.
  if (method === 'GET')
    throw new InterlockError('A GET request has no body: pass extra parameters as `query`.');
  if (body === undefined) return { ...extra };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InterlockError('Extra body fields need a JSON object body.');
  }
  return { ...body, ...extra };
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
