import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';

const PAGE = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>';

describe('The dashboard at / (SPEC §9)', () => {
  let t: TestApp;
  let webDir: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'interlock-web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(join(webDir, 'index.html'), INDEX);
    writeFileSync(join(webDir, 'assets', 'app-abc123.js'), 'console.log("app");');
    writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp({ env: { WEB_DIR: webDir } });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('serves the app at / with its security headers', async () => {
    const res = await http().get('/').set('accept', PAGE);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('answers client routes with the app, whatever their depth', async () => {
    for (const path of [
      '/inbox',
      '/interrupts/8a7e2c1e-0000-4000-8000-000000000000',
      '/integrations/api-keys?welcome=1',
    ]) {
      const res = await http().get(path).set('accept', PAGE);
      expect(res.status).toBe(200);
      expect(res.text).toBe(INDEX);
    }
  });

  it('serves built files, hashed assets cached for a year', async () => {
    const asset = await http().get('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await http().get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('leaves a missing file, a non-page request and other methods to the JSON 404', async () => {
    for (const res of [
      await http().get('/assets/gone-000.js'),
      await http().get('/inbox').set('accept', 'application/json'),
      await http().post('/inbox').set('accept', PAGE).send({}),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    }
  });

  it('keeps /api, /docs and /health the service’s own', async () => {
    const unknownApi = await http().get('/api/nothing-here').set('accept', PAGE);
    expect(unknownApi.status).toBe(404);
    expect(unknownApi.headers['content-type']).toMatch(/^application\/json/);
    expect(unknownApi.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });

    const health = await http().get('/health/live').set('accept', PAGE);
    expect(health.status).toBe(200);
    expect(health.headers['content-type']).toMatch(/^application\/json/);

    const docs = await http().get('/docs/').set('accept', PAGE);
    expect(docs.status).toBe(200);
    expect(docs.text).not.toBe(INDEX);
    expect(docs.text).toContain('swagger');

    const session = await http().get('/api/auth/session').set('accept', PAGE);
    expect(session.status).toBe(401);
    expect(session.body).toMatchObject({ code: 'SIGN_IN_REQUIRED' });
  });
});

describe('The dashboard when it was not built', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEB_DIR: join(tmpdir(), 'interlock-web-never-built') } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('tells a browser how to build it, and changes nothing else', async () => {
    const page = await request(t.app.getHttpServer()).get('/').set('accept', PAGE);
    expect(page.status).toBe(503);
    expect(page.text).toContain('npx nx run web:build');
    expect(t.logs.some((l) => String(l.msg).includes('the dashboard is not built'))).toBe(true);
    const api = await request(t.app.getHttpServer()).get('/api/nothing-here').set('accept', PAGE);
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ code: 'NOT_FOUND' });
  });
});
