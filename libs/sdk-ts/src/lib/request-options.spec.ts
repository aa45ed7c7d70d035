// Every resource method takes RequestOptions (openai-node's per-call `query`, `body`, `headers`,
// `timeout`, `maxRetries`, `signal`) as its last argument, and they reach the wire. The table
// below must name every method of every resource: a new method without options fails here.
import { Interlock } from './client';
import { InterlockError } from './errors';
import type { RequestOptions } from './request-options';
import { AuditLog } from './resources/audit-log';
import { Interrupts } from './resources/interrupts';
import { Sessions } from './resources/sessions';
import { jsonResponse, mockFetch } from './testing/mock-fetch';

const interrupt = {
  id: 'int_1',
  title: 't',
  status: 'answered',
  actionRequests: [{ name: 'a', args: {}, description: null, allowedDecisions: ['approve'] }],
  decisions: [
    {
      id: 'd',
      actionName: 'a',
      decision: 'approve',
      editedArgs: null,
      editedName: null,
      message: null,
    },
  ],
  metadata: null,
};
const session = { id: 'ses_1', name: 's', status: 'active', messageCount: 0 };

/** Answers every call with a body that suits any method (an interrupt, a session, a page). */
function anything() {
  return mockFetch((call) => {
    if (call.url.pathname === '/api/interrupts' && call.method === 'GET')
      return jsonResponse(200, { interrupts: [interrupt], nextCursor: null });
    if (call.url.pathname === '/api/sessions' && call.method === 'GET')
      return jsonResponse(200, { sessions: [session], nextCursor: null });
    if (call.url.pathname === '/api/audit-log')
      return jsonResponse(200, { entries: [], nextCursor: null });
    if (call.url.pathname.startsWith('/api/sessions'))
      return jsonResponse(200, call.url.pathname.endsWith('/messages') ? { appended: 1 } : session);
    return jsonResponse(200, interrupt);
  });
}

type Call = (client: Interlock, options: RequestOptions) => PromiseLike<unknown>;

const extras = { query: { trace: 'x1' }, headers: { 'x-extra': 'yes' } } satisfies RequestOptions;
const bodyExtra = { priority: 'high' };

// [resource, method, verb, call]: the call passes `options` where the method takes them.
const methods: [string, string, 'GET' | 'POST', Call][] = [
  [
    'interrupts',
    'create',
    'POST',
    (c, o) => c.interrupts.create({ title: 't', actionRequests: [{ name: 'a' }] }, o),
  ],
  ['interrupts', 'get', 'GET', (c, o) => c.interrupts.get('int_1', o)],
  [
    'interrupts',
    'cancel',
    'POST',
    (c, o) => c.interrupts.cancel('int_1', { reason: 'gave up' }, o),
  ],
  ['interrupts', 'list', 'GET', (c, o) => c.interrupts.list({ status: 'open' }, o)],
  [
    'interrupts',
    'waitForAnswer',
    'GET',
    (c, o) => c.interrupts.waitForAnswer('int_1', { ...o, timeout: 1_000 }),
  ],
  [
    'interrupts',
    'reviewLangGraph',
    'POST',
    (c, o) =>
      c.interrupts.reviewLangGraph(
        {
          actionRequests: [{ name: 'a', args: {} }],
          reviewConfigs: [{ actionName: 'a', allowedDecisions: ['approve'] }],
        },
        { request: o, wait: { query: o.query, headers: o.headers } },
      ),
  ],
  ['sessions', 'start', 'POST', (c, o) => c.sessions.start({ name: 's' }, o)],
  ['sessions', 'retrieve', 'GET', (c, o) => c.sessions.retrieve('ses_1', o)],
  ['sessions', 'list', 'GET', (c, o) => c.sessions.list({ status: 'active' }, o)],
  [
    'sessions',
    'append',
    'POST',
    (c, o) => c.sessions.append('ses_1', [{ role: 'agent', content: 'hi' }], o),
  ],
  ['sessions', 'end', 'POST', (c, o) => c.sessions.end('ses_1', o)],
  ['auditLog', 'list', 'GET', (c, o) => c.auditLog.list({ category: 'interrupt' }, o)],
  ['client', 'whoami', 'GET', (c, o) => c.whoami(o)],
];

describe('RequestOptions on every resource method', () => {
  it('the table names every method of every resource', () => {
    const own = (proto: object) =>
      Object.getOwnPropertyNames(proto).filter((name) => name !== 'constructor');
    for (const [resource, proto] of [
      ['interrupts', Interrupts.prototype],
      ['sessions', Sessions.prototype],
      ['auditLog', AuditLog.prototype],
    ] as const) {
      expect([resource, own(proto).sort()]).toEqual([
        resource,
        methods
          .filter(([r]) => r === resource)
          .map(([, m]) => m)
          .sort(),
      ]);
    }
  });

  it.each(methods)(
    '%s.%s: extra query parameters and headers reach the request',
    async (_resource, _method, verb, call) => {
      const { fetch, calls } = anything();
      const client = new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });
      await call(client, verb === 'POST' ? { ...extras, body: bodyExtra } : extras);
      expect(calls.length).toBeGreaterThan(0);
      for (const sent of calls.filter((c) => c.method === verb)) {
        expect(sent.url.searchParams.get('trace')).toBe('x1');
        expect(sent.headers['x-extra']).toBe('yes');
        if (verb === 'POST') expect(sent.body).toMatchObject(bodyExtra);
      }
    },
  );

  it('extra body fields on a GET are refused before anything is sent (fetch cannot send them)', async () => {
    const { fetch, calls } = anything();
    const client = new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });
    await expect(client.interrupts.get('int_1', { body: { x: 1 } })).rejects.toThrow(
      new InterlockError('A GET request has no body: pass extra parameters as `query`.'),
    );
    expect(calls).toHaveLength(0);
  });

  it('extra query parameters win over the call’s own', async () => {
    const { fetch, calls } = anything();
    const client = new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });
    await client.sessions.list({ status: 'active', limit: 5 }, { query: { limit: 7 } });
    expect(calls[0].url.searchParams.get('limit')).toBe('7');
  });
});
