import { VERSION } from './version';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InterlockError,
} from './errors';
import { CursorPage, PagePromise } from './pagination';
import type { Fetch, RequestOptions } from './request-options';
import { retryDelayMs, shouldRetryResponse } from './retry';
import { isBrowser, readEnv, sleep, uuid4 } from './runtime';
import { AuditLog } from './resources/audit-log';
import { Interrupts } from './resources/interrupts';
import { Sessions } from './resources/sessions';
import type { Whoami } from './types';

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
  /**
   * API keys are server-side secrets: the client refuses to run in a browser, where the key would
   * be visible to anyone using the page, unless this is true.
   */
  dangerouslyAllowBrowser?: boolean;
}

type Method = 'GET' | 'POST';
export type QueryValue = string | number | boolean | Date | null | undefined;

export interface RequestSpec {
  method: Method;
  path: string;
  query?: Record<string, QueryValue> | object;
  body?: unknown;
  options?: RequestOptions;
}

type Attempt<T> =
  | { ok: true; value: T }
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

  private readonly fetchImpl: Fetch;
  private readonly defaultHeaders: Record<string, string>;

  constructor({
    apiKey = readEnv('INTERLOCK_API_KEY'),
    baseURL = readEnv('INTERLOCK_BASE_URL'),
    timeout = DEFAULT_TIMEOUT_MS,
    maxRetries = DEFAULT_MAX_RETRIES,
    fetch,
    defaultHeaders = {},
    dangerouslyAllowBrowser = false,
  }: ClientOptions = {}) {
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
      throw new InterlockError(`timeout must be a positive number of milliseconds, got ${timeout}.`);
    }
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new InterlockError(`maxRetries must be a non-negative integer, got ${maxRetries}.`);
    }
    if (fetch === undefined && typeof globalThis.fetch !== 'function') {
      throw new InterlockError('No global fetch in this runtime (Node 18 or later has one): pass `fetch`.');
    }
    this.apiKey = apiKey;
    this.baseURL = (baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    // Called unbound: some fetch implementations throw "Illegal invocation" otherwise.
    this.fetchImpl = fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.defaultHeaders = defaultHeaders;

    this.interrupts = new Interrupts(this);
    this.sessions = new Sessions(this);
    this.auditLog = new AuditLog(this);
  }

  /** Which key this is, for which organisation, on which plan. */
  whoami(options?: RequestOptions): Promise<Whoami> {
    return this.get<Whoami>('/api/whoami', { options });
  }

  /** A GET to any path of the API (for endpoints this SDK does not wrap yet). */
  get<T>(path: string, spec: Omit<RequestSpec, 'method' | 'path' | 'body'> = {}): Promise<T> {
    return this.request<T>({ ...spec, method: 'GET', path });
  }

  /** A POST to any path of the API, with a JSON body when one is given. */
  post<T>(path: string, spec: Omit<RequestSpec, 'method' | 'path' | 'query'> = {}): Promise<T> {
    return this.request<T>({ ...spec, method: 'POST', path });
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

  /** Sends one call, retrying as RequestOptions and the client allow. */
  async request<T>(spec: RequestSpec): Promise<T> {
    const options = spec.options ?? {};
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    const url = this.buildURL(spec.path, spec.query);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    // One key per call, reused by every retry, so the service can recognise a repeat.
    const idempotencyKey = spec.method === 'POST' ? (options.idempotencyKey ?? uuid4()) : undefined;
    const headers = this.buildHeaders(options.headers, body !== undefined, idempotencyKey);

    for (let retriesTaken = 0; ; retriesTaken++) {
      const attempt = await this.attempt<T>(spec.method, url, headers, body, timeout, options.signal);
      if (attempt.ok) return attempt.value;
      if (!attempt.retryable || retriesTaken >= maxRetries) throw attempt.error;
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
      let responseHeaders: Headers;
      let text: string;
      try {
        const response = await this.fetchImpl(url, { method, headers, body, signal: controller.signal });
        status = response.status;
        responseHeaders = response.headers;
        // Read under the same timeout: a stalled body is as bad as a stalled response.
        text = await response.text();
      } catch (cause) {
        if (signal?.aborted) return { ok: false, error: new APIUserAbortError({ cause }), retryable: false };
        if (timedOut) return { ok: false, error: new APIConnectionTimeoutError({ cause }), retryable: true };
        return { ok: false, error: new APIConnectionError({ cause }), retryable: true };
      }
      if (status < 200 || status >= 300) {
        return {
          ok: false,
          error: APIError.generate(status, parseBody(text), responseHeaders),
          retryable: shouldRetryResponse(status, responseHeaders),
          headers: responseHeaders,
        };
      }
      if (text === '') return { ok: true, value: undefined as T };
      try {
        return { ok: true, value: JSON.parse(text) as T };
      } catch (cause) {
        const error = new APIError(status, text, `${status} response was not valid JSON.`, responseHeaders, cause);
        return { ok: false, error, retryable: false };
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private buildURL(path: string, query: object | undefined): string {
    const url = `${this.baseURL}${path.startsWith('/') ? path : `/${path}`}`;
    if (query === undefined) return url;
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

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
