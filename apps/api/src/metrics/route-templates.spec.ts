import { RouteTemplates, UNMATCHED_ROUTE } from './route-templates';
import { statementKind } from './database-metrics';
import { isLongPoll } from './http-metrics';

describe('RouteTemplates', () => {
  const routes = new RouteTemplates([
    { method: 'GET', path: '/api/interrupts' },
    { method: 'POST', path: '/api/interrupts' },
    { method: 'GET', path: '/api/interrupts/:id' },
    { method: 'POST', path: '/api/interrupts/:id/decisions' },
    { method: 'GET', path: '/api/interrupts/inbox' },
    { method: 'POST', path: '/api/invitations/:token/accept' },
    { method: 'GET', path: '/health/live' },
  ]);

  it('labels a path with its template, never the raw path or an id', () => {
    expect(routes.match('GET', '/api/interrupts/0d8e8f4e-1b1c-4a0e-9a8e-3f2d1c0b9a87')).toBe(
      '/api/interrupts/:id',
    );
    expect(routes.match('POST', '/api/interrupts/abc/decisions?x=1')).toBe(
      '/api/interrupts/:id/decisions',
    );
    expect(routes.match('POST', '/api/invitations/secret-token/accept')).toBe(
      '/api/invitations/:token/accept',
    );
    expect(routes.match('GET', '/api/interrupts?status=open')).toBe('/api/interrupts');
  });

  it('prefers a static segment to a parameter, as the routers do', () => {
    expect(routes.match('GET', '/api/interrupts/inbox')).toBe('/api/interrupts/inbox');
  });

  it('matches case-insensitively and with trailing slashes, HEAD as GET', () => {
    expect(routes.match('GET', '/API/Interrupts/')).toBe('/api/interrupts');
    expect(routes.match('HEAD', '/health/live')).toBe('/health/live');
  });

  it("labels a known path under an undeclared method with its template (the 405 is that route's)", () => {
    expect(routes.match('DELETE', '/health/live')).toBe('/health/live');
  });

  it('labels everything else as unmatched (a bounded label for 404s and the dashboard files)', () => {
    expect(routes.match('GET', '/')).toBe(UNMATCHED_ROUTE);
    expect(routes.match('GET', '/assets/index-3f2a.js')).toBe(UNMATCHED_ROUTE);
    expect(routes.match('GET', '/api/interrupts/a/b/c')).toBe(UNMATCHED_ROUTE);
    expect(routes.match('GET', '/api/interrupts/abc/decisions')).toBe(
      '/api/interrupts/:id/decisions',
    );
  });
});

describe('statementKind', () => {
  it('is the first keyword, from a closed set', () => {
    expect(statementKind('SELECT 1')).toBe('select');
    expect(statementKind('\n  WITH x AS (SELECT 1) SELECT * FROM x')).toBe('with');
    expect(statementKind('(SELECT 1) UNION (SELECT 2)')).toBe('select');
    expect(statementKind('INSERT INTO t VALUES (1)')).toBe('insert');
    expect(statementKind('COMMIT')).toBe('transaction');
    expect(statementKind('START TRANSACTION')).toBe('transaction');
    expect(statementKind('LISTEN "x"')).toBe('other');
    expect(statementKind(undefined)).toBe('other');
  });
});

describe('isLongPoll', () => {
  it('is a request with waitSeconds above 0', () => {
    expect(isLongPoll('/api/interrupts/x?waitSeconds=30')).toBe(true);
    expect(isLongPoll('/api/interrupts/x?include=session&waitSeconds=5')).toBe(true);
    expect(isLongPoll('/api/interrupts/x?waitSeconds=0')).toBe(false);
    expect(isLongPoll('/api/interrupts/x')).toBe(false);
    expect(isLongPoll('/api/interrupts/x?maxWaitSeconds=5')).toBe(false);
  });
});
