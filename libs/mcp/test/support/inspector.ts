// The MCP Inspector (@modelcontextprotocol/inspector), pinned with its own lockfile in
// libs/mcp/test/inspector and installed by `npm ci` into tmp/mcp-inspector the first time (again
// whenever the pin changes). It is not a dependency of the workspace: its `engines` asks for
// Node ≥ 22.19, so it would warn on every `npm install` here; its CLI mode runs on Node 20.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');
const pinned = join(__dirname, '..', 'inspector');
const installDir = join(root, 'tmp', 'mcp-inspector');
const stampFile = join(installDir, '.pin.sha256');

export function installInspector(): string {
  const files = ['package.json', 'package-lock.json'];
  const stamp = createHash('sha256')
    .update(files.map((f) => readFileSync(join(pinned, f), 'utf8')).join('\0'))
    .digest('hex');
  const bin = join(installDir, 'node_modules', '.bin', 'mcp-inspector');
  if (existsSync(bin) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp)
    return bin;
  rmSync(installDir, { recursive: true, force: true });
  mkdirSync(installDir, { recursive: true });
  for (const f of files) copyFileSync(join(pinned, f), join(installDir, f));
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: installDir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0)
    throw new Error(
      `npm ci of the MCP Inspector failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  writeFileSync(stampFile, stamp);
  return bin;
}

export interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `mcp-inspector --cli …` to completion. */
export function runInspector(bin: string, args: string[]): Promise<InspectorRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--cli', ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
