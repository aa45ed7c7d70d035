import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';
import { startTestApp, TestApp } from './support/test-app';

const PAGE = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('The packages at /downloads (issue 32 §4)', () => {
  let t: TestApp;
  let dir: string;
  const tarball = Buffer.from('a tarball, as far as this test is concerned');
  const wheel = Buffer.from('PK a wheel');
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'interlock-downloads-'));
    writeFileSync(join(dir, 'interlock-sdk-0.1.0.tgz'), tarball);
    writeFileSync(join(dir, 'interlock_sdk-0.1.0-py3-none-any.whl'), wheel);
    writeFileSync(join(dir, 'secret.txt'), 'not listed in the manifest');
    const packages = [
      {
        name: '@interlock/sdk',
        kind: 'npm',
        version: '0.1.0',
        file: 'interlock-sdk-0.1.0.tgz',
        sha256: sha(tarball),
        size: tarball.length,
      },
      {
        name: 'interlock-sdk',
        kind: 'python',
        version: '0.1.0',
        file: 'interlock_sdk-0.1.0-py3-none-any.whl',
        sha256: sha(wheel),
        size: wheel.length,
      },
      // Listed but never built: a 404, not a 500.
      {
        name: '@interlock/mcp',
        kind: 'npm',
        version: '0.1.0',
        file: 'interlock-mcp-0.1.0.tgz',
        sha256: '0'.repeat(64),
        size: 1,
      },
      // A name that could leave the folder is never served, even when listed.
      {
        name: 'evil',
        kind: 'npm',
        version: '1',
        file: '../secret.txt',
        sha256: '0'.repeat(64),
        size: 1,
      },
    ];
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ packages }));
    t = await startTestApp({ env: { DOWNLOADS_DIR: dir } });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists what it serves, with paths, sizes and digests, to anyone', async () => {
    const res = await http().get('/downloads');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body.packages.map((p: { file: string; path: string }) => [p.file, p.path])).toEqual([
      ['interlock-sdk-0.1.0.tgz', '/downloads/interlock-sdk-0.1.0.tgz'],
      ['interlock_sdk-0.1.0-py3-none-any.whl', '/downloads/interlock_sdk-0.1.0-py3-none-any.whl'],
      ['interlock-mcp-0.1.0.tgz', '/downloads/interlock-mcp-0.1.0.tgz'],
    ]);
    expect(res.body.packages[0]).toMatchObject({
      name: '@interlock/sdk',
      kind: 'npm',
      version: '0.1.0',
      sha256: sha(tarball),
      size: tarball.length,
    });
  });

  it('serves each listed file as it is, with its type, length and digest', async () => {
    for (const [file, bytes, type] of [
      ['interlock-sdk-0.1.0.tgz', tarball, 'application/gzip'],
      ['interlock_sdk-0.1.0-py3-none-any.whl', wheel, 'application/zip'],
    ] as const) {
      const res = await http()
        .get(`/downloads/${file}`)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-length']).toBe(String(bytes.length));
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${file}"`);
      expect(res.headers['etag']).toBe(`"${sha(bytes)}"`);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    // A browser navigation gets the file too, not the dashboard.
    expect(
      (await http().get('/downloads/interlock-sdk-0.1.0.tgz').set('accept', PAGE)).headers[
        'content-type'
      ],
    ).toBe('application/gzip');
  });

  it('answers the JSON 404 for anything else: unlisted, unbuilt, or outside the folder', async () => {
    for (const path of [
      '/downloads/secret.txt',
      '/downloads/interlock-mcp-0.1.0.tgz',
      '/downloads/..%2Fsecret.txt',
      '/downloads/manifest.json',
    ]) {
      const res = await http().get(path);
      expect([path, res.status, res.body.code, res.body.message]).toEqual([
        path,
        404,
        'NOT_FOUND',
        'Not found.',
      ]);
    }
  });
});

describe('/downloads with nothing built', () => {
  it('lists nothing and serves nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'interlock-downloads-empty-'));
    const t = await startTestApp({ env: { DOWNLOADS_DIR: empty } });
    try {
      expect((await request(t.app.getHttpServer()).get('/downloads')).body).toEqual({
        packages: [],
      });
      expect(
        (await request(t.app.getHttpServer()).get('/downloads/interlock-sdk-0.1.0.tgz')).status,
      ).toBe(404);
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("/downloads in the container image's layout (docker/api.Dockerfile)", () => {
  // The image runs `dist/apps/api/main.js` with Node in WORKDIR /app with the packages that
  // build-downloads.mjs wrote copied to /app/dist/downloads and no DOWNLOADS_DIR: the built
  // service, started the same way in a folder laid out the same way, serves them.
  let app: string;
  let db: TestDatabase;
  let service: ServiceProcess | undefined;
  const wheel = Buffer.from('PK the wheel the image built');

  beforeAll(async () => {
    app = mkdtempSync(join(tmpdir(), 'interlock-image-layout-'));
    mkdirSync(join(app, 'dist', 'downloads'), { recursive: true });
    symlinkSync(resolve(__dirname, '../../../dist/apps'), join(app, 'dist', 'apps'));
    const file = 'interlock_sdk-0.1.0-py3-none-any.whl';
    writeFileSync(join(app, 'dist', 'downloads', file), wheel);
    const sha256 = createHash('sha256').update(wheel).digest('hex');
    writeFileSync(
      join(app, 'dist', 'downloads', 'manifest.json'),
      JSON.stringify({
        packages: [
          {
            name: 'interlock-sdk',
            kind: 'python',
            version: '0.1.0',
            file,
            sha256,
            size: wheel.length,
          },
        ],
      }),
    );
    db = await createMigratedTestDatabase();
    service = await startServiceProcess(
      { DATABASE_URL: db.url, API_KEY_PEPPER: 'image-layout-pepper-0123456789abcdef' },
      120_000,
      app,
    );
  });
  afterAll(async () => {
    await service?.stop();
    await db?.drop();
    rmSync(app, { recursive: true, force: true });
  });

  it('serves dist/downloads under its working directory when DOWNLOADS_DIR is not set', async () => {
    const listed = await fetch(`${service?.baseUrl}/downloads`);
    expect(listed.status).toBe(200);
    const { packages } = (await listed.json()) as { packages: { path: string }[] };
    expect(packages.map((p) => p.path)).toEqual([
      '/downloads/interlock_sdk-0.1.0-py3-none-any.whl',
    ]);
    const served = await fetch(
      `${service?.baseUrl}/downloads/interlock_sdk-0.1.0-py3-none-any.whl`,
    );
    expect(served.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), wheel)).toBe(0);
  });
});
