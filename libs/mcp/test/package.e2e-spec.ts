// The published package as a user gets it: `npm pack` (and `npm publish --dry-run` agrees), served
// at the service's /downloads, and started the way the README's client configurations do —
// `npx -y <server>/downloads/interlock-mcp-<version>.tgz`, with a fresh npm cache, as on a new
// machine — with the official MCP client, against the live service.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { live } from './support/live';

const packageDir = join(__dirname, '..');

function run(cmd: string, args: string[], cwd: string): string {
  const result = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

describe('the npm package', () => {
  let project: string;
  let packDir: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'interlock-mcp-project-'));
    packDir = mkdtempSync(join(tmpdir(), 'interlock-mcp-pack-'));
  });
  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(packDir, { recursive: true, force: true });
  });

  it('packs only the build and serves over stdio as `npx -y <server>/downloads/interlock-mcp-<version>.tgz`', async () => {
    // The build is the mcp:build target's (mcp:e2e depends on it).
    const [packed] = JSON.parse(
      run('npm', ['pack', '--json', '--pack-destination', packDir], packageDir),
    ) as {
      filename: string;
      version: string;
      files: { path: string }[];
    }[];
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/cli.js',
        'dist/index.js',
        'dist/index.d.ts',
      ]),
    );
    expect(
      files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json'),
    ).toEqual([]);

    // The release path: what `npm publish` would upload is this package.
    const wouldPublish = JSON.parse(
      run('npm', ['publish', '--dry-run', '--json'], packageDir),
    ) as Record<string, { id: string }>;
    expect(Object.values(wouldPublish).map((p) => p.id)).toEqual([
      `@interlock/mcp@${packed.version}`,
    ]);

    // Served by the service, as the dashboard and the README tell people to install it.
    const dir = process.env['INTERLOCK_TEST_DOWNLOADS_DIR'];
    if (dir === undefined)
      throw new Error(
        'INTERLOCK_TEST_DOWNLOADS_DIR is not set: run through tools/scripts/with-service.mjs',
      );
    const bytes = readFileSync(join(packDir, packed.filename));
    writeFileSync(join(dir, packed.filename), bytes);
    const entry = {
      name: '@interlock/mcp',
      kind: 'npm',
      version: packed.version,
      file: packed.filename,
      size: bytes.length,
    };
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        packages: [{ ...entry, sha256: createHash('sha256').update(bytes).digest('hex') }],
      }),
    );
    const url = `${live.baseURL}/downloads/${packed.filename}`;

    const client = new Client({ name: 'package-check', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['-y', url],
        cwd: project,
        env: {
          ...(process.env as Record<string, string>),
          INTERLOCK_API_KEY: live.apiKey,
          INTERLOCK_BASE_URL: live.baseURL,
          // A cache of its own: nothing left by an earlier run (or the workspace) stands in for the download.
          npm_config_cache: join(project, 'npm-cache'),
          npm_config_update_notifier: 'false',
        },
        stderr: 'ignore',
      }),
    );
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'interlock', version: '0.1.0' });
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(8);
      const result = (await client.callTool({
        name: 'list_pending',
        arguments: {},
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ complete: true });
    } finally {
      await client.close();
    }
  });
});
