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

/** Runs the middleware on one request: the Allow header of a 405, or 'next'. */
function answer(method: string, path: string): string {
  const middleware = methodNotAllowedGate(ROUTES);
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

  it('matches literal segments case-insensitively and allows one trailing slash', () => {
    expect(answer('PUT', '/API/Interrupts/')).toBe('GET, POST');
    expect(answer('POST', '/Health/Live')).toBe('GET');
    expect(answer('POST', '/health/live//')).toBe('next');
    expect(answer('POST', '/health//live')).toBe('next');
  });
});
