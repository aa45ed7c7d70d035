import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';

const PAGE = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const EARLY = 'window.early = fetch("/api/me");';
const INDEX = `<!doctype html><html><head><script>${EARLY}</script></head><body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>`;
/** A built asset with the build's Brotli and gzip copies beside it (apps/web/vite.config.ts). */
const STYLES = `${'.inbox-row { color: red; }\n'.repeat(200)}`;

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
    writeFileSync(join(webDir, 'assets', 'shell-def456.css'), STYLES);
    writeFileSync(join(webDir, 'assets', 'shell-def456.css.br'), brotliCompressSync(STYLES));
    writeFileSync(join(webDir, 'assets', 'shell-def456.css.gz'), gzipSync(STYLES));
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
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Scripts from this origin, and the page's one inline script (the early reads) by its hash.
    const hash = createHash('sha256').update(EARLY).digest('base64');
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}';`);
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

  it('sends the build’s Brotli or gzip copy of an asset to a browser that accepts it', async () => {
    const get = (encoding: string) =>
      http()
        .get('/assets/shell-def456.css')
        .set('accept-encoding', encoding)
        .buffer(true)
        .parse((res, done) => {
          // superagent inflates gzip and Brotli itself: the length header says what was sent.
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks).toString()));
        });
    const br = await get('gzip, deflate, br, zstd');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(brotliCompressSync(STYLES).length);
    expect(br.body).toBe(STYLES);

    const gzip = await get('gzip;q=1, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(gzipSync(STYLES).length);
    expect(gzip.body).toBe(STYLES);

    for (const plain of [await get('identity'), await get('br;q=0, gzip;q=0')]) {
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      expect(Number(plain.headers['content-length'])).toBe(STYLES.length);
      expect(plain.body).toBe(STYLES);
    }
    // The copies are only the asset's other forms, never files of their own.
    const copy = await http().get('/assets/shell-def456.css.br');
    expect(copy.status).toBe(404);
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
