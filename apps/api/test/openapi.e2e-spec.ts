import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { declaredRoutes } from '../src/auth/route-declarations.util';
import { startTestApp, TestApp } from './support/test-app';

const COMMITTED = join(__dirname, '..', '..', '..', 'contract', 'openapi.json');

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in?: string; name?: string }[];
  responses: Record<string, unknown>;
}

describe('the OpenAPI contract', () => {
  let t: TestApp;
  let served: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    t = await startTestApp();
    served = (await request(t.app.getHttpServer()).get('/api/openapi.json').expect(200)).body;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is the committed contract/openapi.json (regenerate with tools/scripts/codegen.mjs)', () => {
    expect(served).toEqual(JSON.parse(readFileSync(COMMITTED, 'utf8')));
  });

  it('has every route the app serves, each with an operationId, a tag and its security', () => {
    const ids = new Set<string>();
    for (const route of declaredRoutes(t.app)) {
      // Not REST: the contract itself, /mcp, which speaks JSON-RPC as the MCP spec describes, and
      // /downloads, the service's own package files (SPEC §9), served like the dashboard's, and
      // Slack's interactivity callback, a signed form only Slack sends (SPEC §8h).
      if (
        route.path === '/api/openapi.json' ||
        route.path === '/mcp' ||
        route.path.startsWith('/downloads') ||
        route.path.startsWith('/api/slack/interactions/')
      )
        continue;
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = served.paths[path]?.[route.method.toLowerCase()];
      expect({ route: `${route.method} ${route.path}`, present: operation !== undefined }).toEqual({
        route: `${route.method} ${route.path}`,
        present: true,
      });
      const op = operation as Operation;
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.has(op.operationId as string)).toBe(false);
      ids.add(op.operationId as string);
      expect(op.tags?.length).toBe(1);
      const principal = route.access?.principal;
      const scheme =
        principal === 'api_key'
          ? [{ apiKey: [] }]
          : principal === 'member' || principal === 'user'
            ? [{ session: [] }]
            : principal === 'api_key_or_member'
              ? [{ apiKey: [] }, { session: [] }]
              : [];
      expect(op.security).toEqual(scheme);
      if (principal === 'api_key' || principal === 'api_key_or_member')
        expect(Object.keys(op.responses)).toContain('401');
      if (principal === 'api_key_or_member') expect(Object.keys(op.responses)).toContain('403');
      if (principal === 'member' || principal === 'user' || principal === 'human') {
        expect(Object.keys(op.responses)).toContain('403');
      }
      // A signed-in person names the organisation they act for (docs/DECISIONS.md, "Users and memberships").
      const header = (op.parameters ?? []).find(
        (p) => p.in === 'header' && p.name === 'x-organisation-id',
      );
      expect({ route: `${route.method} ${route.path}`, header: header !== undefined }).toEqual({
        route: `${route.method} ${route.path}`,
        header: principal === 'member' || principal === 'api_key_or_member',
      });
    }
  });

  it('renders at /docs', async () => {
    const res = await request(t.app.getHttpServer()).get('/docs').redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });
});
