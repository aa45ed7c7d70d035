import { Interlock } from './client';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InterlockError,
  InternalServerError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  PlanRequiredError,
  RateLimitError,
} from './errors';
import { errorResponse, hangingResponse, jsonResponse, mockFetch } from './testing/mock-fetch';
import { VERSION } from './version';
import packageJson from '../../package.json';

const KEY = 'ilk_testkey';
const INTERRUPT = {
  id: 'int_1',
  title: 'Review send_email',
  status: 'open',
  actionRequests: [{ name: 'send_email', args: { to: 'a@b.c' } }],
  decisions: [],
};

/** Fake timers and clock; the promise machinery of fetch's Response stays real. */
const useFakeClock = () =>
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });

/**
 * Moves the fake clock on 1 ms at a time (each step lets the client's promises run) until
 * `pending` settles; throws if it has not after 2 s of fake time.
 */
async function advanceUntilSettled(pending: Promise<unknown>): Promise<void> {
  let settled = false;
  void pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let ms = 0; ms < 2_000 && !settled; ms++) await jest.advanceTimersByTimeAsync(1);
  if (!settled) throw new Error('still pending after 2 s of fake time');
}

function client(
  fetch: ReturnType<typeof mockFetch>['fetch'],
  extra: Partial<ConstructorParameters<typeof Interlock>[0]> = {},
) {
  return new Interlock({ apiKey: KEY, baseURL: 'http://interlock.test/', fetch, ...extra });
}

describe('Interlock client: configuration', () => {
  const saved = process.env.INTERLOCK_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.INTERLOCK_API_KEY;
    else process.env.INTERLOCK_API_KEY = saved;
  });

  it('reads the key from INTERLOCK_API_KEY when none is given', () => {
    process.env.INTERLOCK_API_KEY = 'ilk_fromenv';
    expect(new Interlock().apiKey).toBe('ilk_fromenv');
  });

  it('refuses to start without a key, saying how to give one', () => {
    delete process.env.INTERLOCK_API_KEY;
    expect(() => new Interlock()).toThrow(InterlockError);
    expect(() => new Interlock()).toThrow(/INTERLOCK_API_KEY/);
    expect(() => new Interlock({ apiKey: '' })).toThrow(/INTERLOCK_API_KEY/);
  });

  it('refuses to run in a browser unless dangerouslyAllowBrowser is set', () => {
    const g = globalThis as Record<string, unknown>;
    const had = {
      window: g.window,
      navigator: Object.getOwnPropertyDescriptor(globalThis, 'navigator'),
    };
    g.window = { document: {} };
    Object.defineProperty(globalThis, 'navigator', {
      value: { userAgent: 'test' },
      configurable: true,
    });
    try {
      expect(() => new Interlock({ apiKey: KEY })).toThrow(/browser/);
      expect(new Interlock({ apiKey: KEY, dangerouslyAllowBrowser: true }).apiKey).toBe(KEY);
    } finally {
      if (had.window === undefined) delete g.window;
      else g.window = had.window;
      if (had.navigator) Object.defineProperty(globalThis, 'navigator', had.navigator);
      else delete g.navigator;
    }
  });

  it('reports the version of package.json', () => {
    expect(VERSION).toBe(packageJson.version);
  });

  it('rejects nonsensical timeout and maxRetries', () => {
    expect(() => new Interlock({ apiKey: KEY, timeout: 0 })).toThrow(/timeout/);
    expect(() => new Interlock({ apiKey: KEY, maxRetries: -1 })).toThrow(/maxRetries/);
  });
});

describe('Interlock client: requests', () => {
  it('sends the key in x-api-key only, with SDK headers, to the trimmed base URL', async () => {
    const { fetch, calls } = mockFetch(
      jsonResponse(200, { organisationId: 'org_1', plan: 'pro', apiKey: { id: 'k1', name: 'ci' } }),
    );
    const who = await client(fetch).whoami();
    expect(who.plan).toBe('pro');
    const [call] = calls;
    expect(call.url.toString()).toBe('http://interlock.test/api/whoami');
    expect(call.method).toBe('GET');
    expect(call.headers['x-api-key']).toBe(KEY);
    expect(call.headers.authorization).toBeUndefined();
    expect(call.headers['user-agent']).toMatch(/^interlock-sdk-ts\//);
    expect(call.headers['x-interlock-sdk']).toMatch(/^ts\//);
    expect(call.headers['content-type']).toBeUndefined();
    expect(call.headers['idempotency-key']).toBeUndefined();
  });

  it('sends JSON bodies with content-type, and a body-less POST without one', async () => {
    const { fetch, calls } = mockFetch(
      jsonResponse(201, { id: 's1', name: 'run', externalId: null, metadata: null }),
      jsonResponse(200, { id: 's1', name: 'run', externalId: null, metadata: null }),
    );
    const c = client(fetch);
    await c.sessions.start({ name: 'run' });
    await c.sessions.end('s1');
    expect(calls[0].headers['content-type']).toBe('application/json');
    expect(calls[0].body).toEqual({ name: 'run' });
    expect(calls[1].url.pathname).toBe('/api/sessions/s1/end');
    expect(calls[1].body).toBeUndefined();
    expect(calls[1].headers['content-type']).toBeUndefined();
  });

  it('serialises query parameters, dropping the unset ones and writing dates as ISO 8601', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(200, { entries: [], nextCursor: null }));
    await client(fetch).auditLog.list({
      category: 'interrupt',
      q: 'ada',
      from: new Date('2025-01-02T03:04:05.678Z'),
      actorId: undefined,
      limit: 200,
    });
    const params = Object.fromEntries(calls[0].url.searchParams);
    expect(params).toEqual({
      category: 'interrupt',
      q: 'ada',
      from: '2025-01-02T03:04:05.678Z',
      limit: '200',
    });
  });

  it('lets per-request headers add, override and remove headers', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(200, INTERRUPT));
    await client(fetch, { defaultHeaders: { 'x-team': 'a' } }).interrupts.get('int_1', {
      headers: { 'X-Trace': 't1', 'user-agent': null },
    });
    expect(calls[0].headers['x-team']).toBe('a');
    expect(calls[0].headers['x-trace']).toBe('t1');
    expect(calls[0].headers['user-agent']).toBeUndefined();
  });

  it('escapes ids in paths', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(200, INTERRUPT));
    await client(fetch).interrupts.get('a/b?c');
    expect(calls[0].url.pathname).toBe('/api/interrupts/a%2Fb%3Fc');
  });
});

describe('Interlock client: retries', () => {
  it('retries a 429 after the Retry-After the service asked for', async () => {
    const { fetch, calls } = mockFetch(
      errorResponse(429, 'RATE_LIMITED', 'Too many requests.', { 'retry-after': '1' }),
      jsonResponse(200, INTERRUPT),
    );
    const interrupt = await client(fetch).interrupts.get('int_1');
    expect(interrupt.id).toBe('int_1');
    expect(calls).toHaveLength(2);
    // The default backoff would be at most 500 ms: waiting ~1 s proves Retry-After was used.
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(950);
  });

  it('honours retry-after-ms', async () => {
    // On a fake clock: the retry leaves exactly when the service asked. (On the real one a bound
    // had to sit between 20 ms and the default backoff's 375–500 ms, and a loaded machine can be
    // late by more than that.)
    useFakeClock();
    try {
      const { fetch, calls } = mockFetch(
        errorResponse(
          503,
          'SERVICE_UNAVAILABLE',
          'The database is unavailable. Try again shortly.',
          {
            'retry-after-ms': '20',
          },
        ),
        jsonResponse(200, INTERRUPT),
      );
      const got = client(fetch).interrupts.get('int_1');
      await advanceUntilSettled(got);
      await expect(got).resolves.toMatchObject({ id: 'int_1' });
      expect(calls).toHaveLength(2);
      expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(20);
      expect(calls[1].at - calls[0].at).toBeLessThanOrEqual(21);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not retry a 400', async () => {
    const { fetch, calls } = mockFetch(
      errorResponse(400, 'VALIDATION_FAILED', 'limit must not be greater than 200'),
    );
    await expect(client(fetch).interrupts.list({ limit: 500 })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(calls).toHaveLength(1);
  });

  it('retries a POST with the same Idempotency-Key, generated once per call', async () => {
    const { fetch, calls } = mockFetch(
      errorResponse(503, 'SERVICE_UNAVAILABLE', 'x', { 'retry-after-ms': '1' }),
      errorResponse(502, 'INTERNAL_ERROR', 'x', { 'retry-after-ms': '1' }),
      jsonResponse(201, INTERRUPT),
    );
    const c = client(fetch);
    await c.interrupts.create({ title: 't', actionRequests: [{ name: 'send_email' }] });
    expect(calls).toHaveLength(3);
    const keys = calls.map((call) => call.headers['idempotency-key']);
    expect(keys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(new Set(keys).size).toBe(1);

    await c.interrupts.create({ title: 't', actionRequests: [{ name: 'send_email' }] });
    expect(calls[3].headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('uses an Idempotency-Key given by the caller', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(201, { appended: 1 }));
    await client(fetch).sessions.append('s1', [{ role: 'agent', content: 'hi' }], {
      idempotencyKey: 'mine',
    });
    expect(calls[0].headers['idempotency-key']).toBe('mine');
    expect(calls[0].body).toEqual({ messages: [{ role: 'agent', content: 'hi' }] });
  });

  it('retries connection errors, then gives up with APIConnectionError', async () => {
    const { fetch, calls } = mockFetch(new TypeError('fetch failed'));
    const error = await client(fetch, { maxRetries: 2 })
      .interrupts.get('int_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionError).cause).toBeInstanceOf(TypeError);
    expect((error as APIConnectionError).message).toMatch(
      /^Connection error: could not reach \S+\/api\/interrupts\/int_1 \(fetch failed\)\. /,
    );
    expect(calls).toHaveLength(3);
  });

  it('recovers when a retry succeeds after a connection error', async () => {
    const { fetch, calls } = mockFetch(new TypeError('fetch failed'), jsonResponse(200, INTERRUPT));
    await expect(client(fetch).interrupts.get('int_1')).resolves.toMatchObject({ id: 'int_1' });
    expect(calls).toHaveLength(2);
  });

  it('stops after maxRetries and throws the last error', async () => {
    const { fetch, calls } = mockFetch(
      errorResponse(500, 'INTERNAL_ERROR', 'Internal server error.', { 'retry-after-ms': '1' }),
    );
    const error = await client(fetch, { maxRetries: 3 })
      .whoami()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(4);
  });

  it('honours maxRetries: 0 per request, and x-should-retry: false', async () => {
    const first = mockFetch(
      errorResponse(429, 'RATE_LIMITED', 'slow down', { 'retry-after-ms': '1' }),
    );
    await expect(client(first.fetch).whoami({ maxRetries: 0 })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(first.calls).toHaveLength(1);

    const second = mockFetch(
      errorResponse(503, 'SERVICE_UNAVAILABLE', 'x', { 'x-should-retry': 'false' }),
    );
    await expect(client(second.fetch).whoami()).rejects.toBeInstanceOf(InternalServerError);
    expect(second.calls).toHaveLength(1);
  });
});

describe('Interlock client: timeouts and aborts', () => {
  it('raises APIConnectionTimeoutError when no response comes within timeout', async () => {
    // On a fake clock: it gives up at exactly its timeout, and a client that never gave up fails
    // here rather than at Jest's timeout.
    useFakeClock();
    try {
      const { fetch, calls } = mockFetch(hangingResponse);
      const started = Date.now();
      const settled = client(fetch, { timeout: 50, maxRetries: 0 })
        .whoami()
        .then(
          (answer): { error: unknown; at: number } => ({ error: answer, at: Date.now() }),
          (e: unknown) => ({ error: e, at: Date.now() }),
        );
      await advanceUntilSettled(settled);
      const { error, at } = await settled;
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toBe('Request timed out.');
      expect(at - started).toBeGreaterThanOrEqual(50);
      expect(at - started).toBeLessThanOrEqual(51);
      expect(calls).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('retries a timed-out attempt', async () => {
    const { fetch, calls } = mockFetch(hangingResponse, jsonResponse(200, INTERRUPT));
    await expect(client(fetch).interrupts.get('int_1', { timeout: 30 })).resolves.toMatchObject({
      id: 'int_1',
    });
    expect(calls).toHaveLength(2);
  });

  it("stops at once with APIUserAbortError when the caller's signal aborts", async () => {
    const { fetch, calls } = mockFetch(hangingResponse);
    const controller = new AbortController();
    const pending = client(fetch).whoami({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(1);
  });
});

describe('Interlock client: typed errors', () => {
  const cases: Array<[number, string, string, new (...args: never[]) => APIError]> = [
    [401, 'MISSING_API_KEY', 'Missing x-api-key header.', AuthenticationError],
    [401, 'INVALID_API_KEY', 'Invalid API key.', AuthenticationError],
    [401, 'API_KEY_EXPIRED', 'API Key has expired', AuthenticationError],
    [402, 'PLAN_REQUIRED', 'The audit log API requires the Pro plan.', PlanRequiredError],
    [
      402,
      'MESSAGES_ALLOWANCE_EXHAUSTED',
      'This organisation has used its included messages for the month (1000).',
      PaymentRequiredError,
    ],
    [403, 'HUMANS_ONLY', 'This endpoint is reserved for humans.', PermissionDeniedError],
    [400, 'VALIDATION_FAILED', 'from must be an ISO 8601 timestamp', BadRequestError],
    [404, 'NOT_FOUND', 'Not found.', NotFoundError],
    [409, 'CONFLICT', 'Already decided.', ConflictError],
    [429, 'RATE_LIMITED', 'Too many requests.', RateLimitError],
    [500, 'INTERNAL_ERROR', 'Internal server error.', InternalServerError],
    [
      503,
      'SERVICE_UNAVAILABLE',
      'The database is unavailable. Try again shortly.',
      InternalServerError,
    ],
  ];

  it.each(cases)('%i %s → %p with the exact message', async (status, code, message, ErrorClass) => {
    const { fetch } = mockFetch(errorResponse(status, code, message));
    const error = await client(fetch, { maxRetries: 0 })
      .auditLog.list()
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(InterlockError);
    const apiError = error as APIError;
    expect(apiError.message).toBe(message);
    expect(apiError.status).toBe(status);
    expect(apiError.code).toBe(code);
    expect(apiError.requestId).toBe(`req-${status}-${code}`);
    expect(apiError.headers?.get('x-request-id')).toBe(`req-${status}-${code}`);
    expect(apiError.body).toMatchObject({ statusCode: status, code, message });
    expect(apiError.name).toBe(ErrorClass.name);
  });

  it('PLAN_REQUIRED is a PaymentRequiredError too; other 402s are not PlanRequiredError', async () => {
    const plan = mockFetch(
      errorResponse(402, 'PLAN_REQUIRED', 'The audit log API requires the Pro plan.'),
    );
    await expect(client(plan.fetch).auditLog.list().firstPage()).rejects.toBeInstanceOf(
      PaymentRequiredError,
    );
    const allowance = mockFetch(
      errorResponse(
        402,
        'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
        'This organisation has used its included agent hours for the month.',
      ),
    );
    const error = await client(allowance.fetch)
      .sessions.start({ name: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).not.toBeInstanceOf(PlanRequiredError);
  });

  it('describes an error response that is not JSON', async () => {
    const { fetch } = mockFetch(new Response('upstream exploded', { status: 502 }));
    const error = (await client(fetch, { maxRetries: 0 })
      .whoami()
      .catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toBe('502 upstream exploded');
    expect(error.code).toBeUndefined();
  });
});
