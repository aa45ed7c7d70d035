import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowedGate } from './method-not-allowed.middleware';

const ROUTES = [
  { method: 'GET', path: '/api/interrupts' },
  { method: 'POST', path: '/api/interrupts' },
  { method: 'GET', path: '/api/interrupts/:id' },
  { method: 'POST', path: '/api/interrupts/:id/decisions' },
  { method: 'PATCH', path: '/api/interrupts/:id' },
  { method: 'GET', path: '/api/interrupts/counts' },
  { method: 'DELETE', path: '/api/api-keys/:id' },
  { method: 'GET', path: '/health/live' },
];

// The sign-in sessions' shape: a literal beside a UUID-only `:id` (`@IdParam`), and a free one.
const UUID_ROUTES = [
  { method: 'GET', path: '/api/me/sessions' },
  { method: 'POST', path: '/api/me/sessions/revoke-others' },
  { method: 'DELETE', path: '/api/me/sessions/:id', uuidParams: ['id'] },
  { method: 'POST', path: '/api/things/named' },
  { method: 'DELETE', path: '/api/things/:name' },
];

/** Runs the middleware on one request: the Allow header of a 405, or 'next'. */
function answer(method: string, path: string, routes: typeof UUID_ROUTES = ROUTES): string {
  const middleware = methodNotAllowedGate(routes);
  let allow = 'next';
  const res = {
    setHeader: (name: string, value: string) => name === 'allow' && (allow = value),
    end: () => res,
  };
  const req = { method, url: path, headers: {}, resume: () => undefined };
  const answered = middleware(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  expect(answered).toBe(allow !== 'next');
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

  it('answers 405 naming every method of every route the path matches, literal and parameter alike', () => {
    expect(answer('PUT', '/api/interrupts')).toBe('GET, POST');
    expect(answer('DELETE', '/api/interrupts/abc')).toBe('GET, PATCH');
    // `counts` is a literal route and an `:id`: the methods of both.
    expect(answer('DELETE', '/api/interrupts/counts')).toBe('GET, PATCH');
    expect(answer('GET', '/api/api-keys/k1')).toBe('DELETE');
  });

  it('does not let a UUID-only parameter take a sibling literal segment; a free one still does', () => {
    const id = '0b8f6b8e-1111-4a4a-9c9c-123456789abc';
    expect(answer('OPTIONS', '/api/me/sessions/revoke-others', UUID_ROUTES)).toBe('POST');
    expect(answer('DELETE', '/api/me/sessions/revoke-others', UUID_ROUTES)).toBe('POST');
    expect(answer('DELETE', '/API/Me/Sessions/Revoke-Others/', UUID_ROUTES)).toBe('POST');
    expect(answer('POST', '/api/me/sessions/revoke-others', UUID_ROUTES)).toBe('next');
    expect(answer('DELETE', `/api/me/sessions/${id}`, UUID_ROUTES)).toBe('next');
    expect(answer('POST', `/api/me/sessions/${id}`, UUID_ROUTES)).toBe('DELETE');
    // Any other segment reaches it: a wrong method is a 405, the right one the route's own 404.
    expect(answer('POST', '/api/me/sessions/not-a-uuid', UUID_ROUTES)).toBe('DELETE');
    expect(answer('DELETE', '/api/me/sessions/not-a-uuid', UUID_ROUTES)).toBe('next');
    // A parameter without IdPipe may be spelt like the literal: both routes serve the path.
    expect(answer('GET', '/api/things/named', UUID_ROUTES)).toBe('DELETE, POST');
    expect(answer('DELETE', '/api/things/named', UUID_ROUTES)).toBe('next');
  });

  it('matches literal segments case-insensitively and allows one trailing slash', () => {
    expect(answer('PUT', '/API/Interrupts/')).toBe('GET, POST');
    expect(answer('POST', '/Health/Live')).toBe('GET');
    expect(answer('POST', '/health/live//')).toBe('next');
    expect(answer('POST', '/health//live')).toBe('next');
  });
});
