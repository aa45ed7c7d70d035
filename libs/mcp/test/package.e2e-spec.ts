// The published package as a user gets it: `npm pack`, install the tarball into a clean project,
// and start it the way the README's client configurations do — `npx @interlock/mcp` — with the
// official MCP client, against the live service.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { live } from './support/live';

const packageDir = join(__dirname, '..');

function run(cmd: string, args: string[], cwd: string): string {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
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

  it('packs only the build, installs into a clean project and serves over stdio as `npx @interlock/mcp`', async () => {
    // The build is the mcp:build target's (mcp:e2e depends on it).
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packDir], packageDir)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', 'dist/cli.js', 'dist/index.js', 'dist/index.d.ts']));
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json')).toEqual([]);

    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'mcp-package-check', private: true }));
    // Its dependencies (the MCP SDK, zod) come from the npm cache when they are there.
    run('npm', ['install', join(packDir, packed.filename), '--no-audit', '--no-fund', '--prefer-offline'], project);

    const client = new Client({ name: 'package-check', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--no-install', '@interlock/mcp'],
        cwd: project,
        env: { ...(process.env as Record<string, string>), INTERLOCK_API_KEY: live.apiKey, INTERLOCK_BASE_URL: live.baseURL },
        stderr: 'ignore',
      }),
    );
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'interlock', version: '0.1.0' });
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(7);
      const result = (await client.callTool({ name: 'list_pending', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ complete: true });
    } finally {
      await client.close();
    }
  });
});
