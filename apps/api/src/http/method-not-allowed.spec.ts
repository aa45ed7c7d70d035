import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowedGate, RouteMethods } from './method-not-allowed';

const ROUTES = [
  { method: 'GET', path: '/api/interrupts' },
  { method: 'POST', path: '/api/interrupts' },
  { method: 'GET', path: '/api/interrupts/:id' },
  { method: 'POST', path: '/api/interrupts/:id/decisions' },
  { method: 'PATCH', path: '/api/interrupts/:id' },
  { method: 'GET', path: '/api/interrupts/counts' },
  { method: 'DELETE', path: '/api/api-keys/:id' },
  { method: 'GET', path: '/health/live' },
  { method: 'GET', path: '/api/me/sessions' },
  { method: 'DELETE', path: '/api/me/sessions/:id' },
  { method: 'POST', path: '/api/me/sessions/revoke-others' },
];

/**
 * Runs the gate on one request: the Allow header of a 405, or 'next'. `routed` is what Fastify
 * tells the gate (the matched pattern, null for none); undefined is Express's case (unknown).
 */
function answer(method: string, path: string, routed?: string | null): string {
  const gate = methodNotAllowedGate(ROUTES);
  let allow = 'next';
  let status = 0;
  const res = {
    statusCode: 200,
    setHeader: (name: string, value: string) => name === 'allow' && (allow = value),
    end: () => {
      status = res.statusCode;
      return res;
    },
  };
  const req = { method, url: path, headers: {}, resume: () => undefined };
  const answered = gate(
    req as unknown as IncomingMessage,
    res as unknown as ServerResponse,
    routed,
  );
  expect(answered).toBe(allow !== 'next');
  if (answered) expect(status).toBe(405);
  return allow;
}

describe('methodNotAllowedGate', () => {
  it('passes a served method, HEAD where GET is, and every unknown path', () => {
    expect(answer('GET', '/api/interrupts')).toBe('next');
    expect(answer('HEAD', '/api/interrupts/abc')).toBe('next');
    expect(answer('POST', '/api/interrupts/abc/decisions')).toBe('next');
    expect(answer('PUT', '/api/nothing')).toBe('next');
    expect(answer('PUT', '/api/interrupts/a/b')).toBe('next');
    expect(answer('PUT', '/')).toBe('next');
  });

  it('answers 405 naming the methods of the most specific routes the path matches', () => {
    expect(answer('PUT', '/api/interrupts')).toBe('GET, POST');
    expect(answer('DELETE', '/api/interrupts/abc')).toBe('GET, PATCH');
    expect(answer('GET', '/api/api-keys/k1')).toBe('DELETE');
    // `counts` is a literal route: the path is its, not the `:id` routes'.
    expect(answer('DELETE', '/api/interrupts/counts')).toBe('GET');
    expect(answer('PATCH', '/api/interrupts/counts')).toBe('GET');
  });

  it('keeps a literal path from a sibling `:id` route of another method (revoke-others is no session id)', () => {
    expect(answer('DELETE', '/api/me/sessions/revoke-others')).toBe('POST');
    expect(answer('OPTIONS', '/api/me/sessions/revoke-others')).toBe('POST');
    expect(answer('POST', '/api/me/sessions/revoke-others')).toBe('next');
    expect(answer('DELETE', '/api/me/sessions/0b8f6b8e-1111-4a4a-9c9c-123456789abc')).toBe('next');
    expect(answer('POST', '/api/me/sessions/0b8f6b8e-1111-4a4a-9c9c-123456789abc')).toBe('DELETE');
    // As Fastify tells it: it routed DELETE …/revoke-others to `:id`; the gate still refuses it.
    expect(answer('DELETE', '/api/me/sessions/revoke-others', '/api/me/sessions/:id')).toBe('POST');
    expect(answer('DELETE', '/api/me/sessions/x1', '/api/me/sessions/:id')).toBe('next');
    expect(answer('PUT', '/api/me/sessions/revoke-others', null)).toBe('POST');
  });

  it('trusts a match no route of another method can take, and looks up a path nothing matched', () => {
    expect(answer('GET', '/api/interrupts', '/api/interrupts')).toBe('next');
    expect(answer('PUT', '/api/interrupts', null)).toBe('GET, POST');
    expect(answer('PUT', '/api/nothing', null)).toBe('next');
  });

  it('matches literal segments case-insensitively and allows one trailing slash', () => {
    expect(answer('PUT', '/API/Interrupts/')).toBe('GET, POST');
    expect(answer('POST', '/Health/Live')).toBe('GET');
    expect(answer('DELETE', '/api/me/sessions/Revoke-Others')).toBe('POST');
    expect(answer('POST', '/health/live//')).toBe('next');
    expect(answer('POST', '/health//live')).toBe('next');
    expect(answer('POST', '/health/live?x=1')).toBe('GET');
  });
});

describe('RouteMethods', () => {
  it('lists no method for a path no route matches', () => {
    const table = new RouteMethods(ROUTES);
    expect(table.allowed('/api/unknown')).toEqual([]);
    expect(table.allowed('/api/interrupts/abc')).toEqual(['GET', 'PATCH']);
  });
});
