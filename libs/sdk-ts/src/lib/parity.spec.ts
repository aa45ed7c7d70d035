// What openai-node gives and this SDK matches: raw responses, request ids, withOptions, extra
// query/body, generic verbs, logging with secrets redacted, typed error codes, unknown enum values.
import { Interlock } from './client';
import { APIError } from './errors';
import type { Logger } from './logging';
import { errorResponse, jsonResponse, mockFetch } from './testing/mock-fetch';
import type { ErrorCode } from './types';

const KEY = 'ilk_secretsecretsecret';
const interrupt = {
  id: 'int_1',
  title: 't',
  status: 'open',
  actionRequests: [{ name: 'a', args: {}, description: null, allowedDecisions: ['approve'] }],
  decisions: [],
};
const make = (fetch: ReturnType<typeof mockFetch>['fetch'], options = {}) =>
  new Interlock({ apiKey: KEY, baseURL: 'http://interlock.test', fetch, ...options });

describe('openai-node parity', () => {
  it('withResponse() and asResponse() give the HTTP response; results carry _request_id', async () => {
    const { fetch } = mockFetch(jsonResponse(200, interrupt, { 'x-request-id': 'req-1' }));
    const client = make(fetch);
    const { data, response, request_id } = await client.interrupts.get('int_1').withResponse();
    expect(request_id).toBe('req-1');
    expect(response.status).toBe(200);
    expect(data.id).toBe('int_1');
    expect(data._request_id).toBe('req-1');
    // Not enumerable: JSON and equality see only the API's fields.
    expect(Object.keys(data)).not.toContain('_request_id');
    expect(JSON.parse(JSON.stringify(data))).toEqual(interrupt);
    const raw = await client.interrupts.get('int_1').asResponse();
    expect(raw.headers.get('x-request-id')).toBe('req-1');
    expect(await raw.json()).toEqual(interrupt);
    expect((await client.interrupts.get('int_1'))._request_id).toBe('req-1');
  });

  it('withOptions copies the client with some options changed', async () => {
    const { fetch, calls } = mockFetch(jsonResponse(200, interrupt));
    const base = make(fetch, { defaultHeaders: { 'x-team': 'ops' } });
    const quick = base.withOptions({ timeout: 5_000, maxRetries: 0 });
    expect([quick.timeout, quick.maxRetries, quick.apiKey, quick.baseURL]).toEqual([
      5_000,
      0,
      KEY,
      'http://interlock.test',
    ]);
    expect([base.timeout, base.maxRetries]).toEqual([60_000, 2]);
    await quick.interrupts.get('int_1');
    expect(calls[0].headers['x-team']).toBe('ops');
  });

  it('defaultQuery, per-call query and body extras, and the generic verbs', async () => {
    const { fetch, calls } = mockFetch(
      jsonResponse(201, interrupt),
      jsonResponse(200, { ok: true }),
    );
    const client = make(fetch, { defaultQuery: { tenant: 'eu', v: '1' } });
    await client.interrupts.create(
      { title: 't', actionRequests: [{ name: 'a' }] },
      { query: { v: '2', trace: 'x' }, body: { priority: 'high' } },
    );
    expect(Object.fromEntries(calls[0].url.searchParams)).toEqual({
      tenant: 'eu',
      v: '2',
      trace: 'x',
    });
    expect(calls[0].body).toEqual({
      title: 't',
      actionRequests: [{ name: 'a' }],
      priority: 'high',
    });
    for (const verb of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      await client[verb]('/api/anything', { query: { q: 1 } });
    }
    expect(
      calls.slice(1).map((c) => [c.method, c.url.pathname, c.url.searchParams.get('q')]),
    ).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, '/api/anything', '1']));
    expect(calls[4].headers['idempotency-key']).toBeUndefined();
    expect(calls[2].headers['idempotency-key']).toBeDefined();
  });

  it('logLevel debug (or INTERLOCK_LOG=debug) logs requests with the key and cookies redacted', async () => {
    const lines: string[] = [];
    const record = (message: string, ...rest: unknown[]) =>
      lines.push(`${message} ${JSON.stringify(rest)}`);
    const logger: Logger = { debug: record, info: record, warn: record, error: record };
    const { fetch } = mockFetch(
      jsonResponse(200, interrupt, { 'x-request-id': 'req-9', 'set-cookie': 'session=abc' }),
    );
    process.env['INTERLOCK_LOG'] = 'debug';
    try {
      const client = make(fetch, { logger, defaultHeaders: { cookie: 'session=topsecret' } });
      expect(client.logLevel).toBe('debug');
      await client.interrupts.get('int_1');
    } finally {
      delete process.env['INTERLOCK_LOG'];
    }
    const text = lines.join('\n');
    expect(text).toContain('GET http://interlock.test/api/interrupts/int_1');
    expect(text).toContain('req-9');
    expect(text).toContain('"x-api-key":"***"');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('topsecret');
    expect(text).not.toContain('session=abc');
    // Off by default.
    const quiet: string[] = [];
    await make(mockFetch(jsonResponse(200, interrupt)).fetch, {
      logger: { ...logger, debug: (m: string) => quiet.push(m) },
    }).interrupts.get('int_1');
    expect(quiet).toEqual([]);
  });

  it('APIError.code is typed as the contract error codes', async () => {
    const { fetch } = mockFetch(errorResponse(401, 'API_KEY_EXPIRED', 'The API key has expired.'));
    const error = await make(fetch, { maxRetries: 0 })
      .interrupts.get('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    const code: ErrorCode | undefined = (error as APIError).code;
    expect(code).toBe('API_KEY_EXPIRED');
  });

  it('passes enum values a newer service adds through unchanged', async () => {
    const newer = {
      ...interrupt,
      status: 'archived',
      actionRequests: [
        { name: 'a', args: {}, description: null, allowedDecisions: ['approve', 'delegate'] },
      ],
      decisions: [
        {
          id: 'd',
          actionName: 'a',
          decision: 'delegate',
          editedArgs: null,
          editedName: null,
          message: null,
        },
      ],
    };
    const { fetch } = mockFetch(jsonResponse(200, { interrupts: [newer], nextCursor: null }));
    const [got] = (await make(fetch).interrupts.list()).data;
    expect(got.status).toBe('archived');
    expect(got.decisions[0].decision).toBe('delegate');
    expect(got.actionRequests[0].allowedDecisions).toEqual(['approve', 'delegate']);
  });
});
