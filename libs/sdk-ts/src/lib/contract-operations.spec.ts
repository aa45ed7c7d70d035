// Every method of the SDK calls an operation the contract declares, with that method and path:
// each method runs against a recording fetch, and every request it sends must match an operation
// of contract/openapi.json. The table must name every method of every resource, so a new method
// is checked too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Interlock } from './client';
import { AuditLog } from './resources/audit-log';
import { Interrupts } from './resources/interrupts';
import { Sessions } from './resources/sessions';
import { jsonResponse, mockFetch, type RecordedCall } from './testing/mock-fetch';

interface Contract {
  paths: Record<string, Record<string, { operationId?: string }>>;
}
const contract = JSON.parse(
  readFileSync(join(__dirname, '../../../../contract/openapi.json'), 'utf8'),
) as Contract;

/** The operationId of the contract's operation for this method and concrete path, if any. */
export function operationFor(
  document: Contract,
  method: string,
  pathname: string,
): string | undefined {
  for (const [template, operations] of Object.entries(document.paths)) {
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
    );
    if (!pattern.test(pathname)) continue;
    const operation = operations[method.toLowerCase()];
    if (operation?.operationId !== undefined) return operation.operationId;
  }
  return undefined;
}

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

function anything() {
  return mockFetch((call) => {
    if (call.url.pathname === '/api/interrupts' && call.method === 'GET')
      return jsonResponse(200, { interrupts: [interrupt], nextCursor: null });
    if (call.url.pathname === '/api/sessions' && call.method === 'GET')
      return jsonResponse(200, { sessions: [session], nextCursor: null });
    if (call.url.pathname === '/api/audit-log')
      return jsonResponse(200, { entries: [], nextCursor: null });
    if (call.url.pathname === '/api/whoami')
      return jsonResponse(200, {
        organisationId: 'o',
        plan: 'pro',
        apiKey: { id: 'k', name: 'ci' },
      });
    if (call.url.pathname.startsWith('/api/sessions'))
      return jsonResponse(200, call.url.pathname.endsWith('/messages') ? { appended: 1 } : session);
    return jsonResponse(200, interrupt);
  });
}

type Call = (client: Interlock) => PromiseLike<unknown>;

// [resource, method, call]
const methods: [string, string, Call][] = [
  [
    'interrupts',
    'create',
    (c) => c.interrupts.create({ title: 't', actionRequests: [{ name: 'a' }] }),
  ],
  ['interrupts', 'get', (c) => c.interrupts.get('int_1')],
  ['interrupts', 'cancel', (c) => c.interrupts.cancel('int_1', { reason: 'gave up' })],
  ['interrupts', 'list', (c) => c.interrupts.list({ status: 'open' })],
  ['interrupts', 'waitForAnswer', (c) => c.interrupts.waitForAnswer('int_1', { timeout: 1_000 })],
  [
    'interrupts',
    'reviewLangGraph',
    (c) =>
      c.interrupts.reviewLangGraph({
        actionRequests: [{ name: 'a', args: {} }],
        reviewConfigs: [{ actionName: 'a', allowedDecisions: ['approve'] }],
      }),
  ],
  ['sessions', 'start', (c) => c.sessions.start({ name: 's' })],
  ['sessions', 'retrieve', (c) => c.sessions.retrieve('ses_1')],
  ['sessions', 'list', (c) => c.sessions.list({ status: 'active' })],
  ['sessions', 'append', (c) => c.sessions.append('ses_1', [{ role: 'agent', content: 'hi' }])],
  ['sessions', 'end', (c) => c.sessions.end('ses_1')],
  ['auditLog', 'list', (c) => c.auditLog.list({ category: 'interrupt' })],
  ['client', 'whoami', (c) => c.whoami()],
];

describe('every SDK method calls an operation of the contract', () => {
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

  it.each(methods)('%s.%s', async (_resource, _method, call) => {
    const { fetch, calls } = anything();
    await call(
      new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch, maxRetries: 0 }),
    );
    expect(calls.length).toBeGreaterThan(0);
    const unknown = calls.filter(
      (c: RecordedCall) => operationFor(contract, c.method, c.url.pathname) === undefined,
    );
    expect(unknown.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([]);
  });

  it('matches by method and path, and knows a path or method the contract lacks', () => {
    expect(operationFor(contract, 'POST', '/api/sessions/ses_1/end')).toBe('endSession');
    expect(operationFor(contract, 'GET', '/api/whoami')).toBe('getWhoami');
    expect(operationFor(contract, 'POST', '/api/sessions/ses_1/finish')).toBeUndefined();
    expect(operationFor(contract, 'DELETE', '/api/sessions/ses_1')).toBeUndefined();
    expect(operationFor(contract, 'GET', '/api/sessions/ses_1/end/extra')).toBeUndefined();
  });
});
