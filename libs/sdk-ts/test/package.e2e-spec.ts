// The published package as a user gets it: build with tsup, `npm pack`, install the tarball into a
// clean project, and run the README's quick start there, verbatim, against the live service.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decide, live, raw } from './support/live-service';

const sdkDir = join(__dirname, '..');
const root = join(sdkDir, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

function run(cmd: string, args: string[], cwd: string): string {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The first ```ts block of the README's "Quick start" section, as printed there. */
function readmeQuickStart(): string {
  const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('no ```ts block under "## Quick start" in libs/sdk-ts/README.md');
  return match[1];
}

/** Decides the interrupt the quick start opens, once it shows up: a member approves it. */
async function approveWhenOpened(title: string, since: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const page = await raw('GET', '/api/interrupts?status=open&limit=50', { headers: { 'x-api-key': live.apiKey } });
    const found = (page.body as { interrupts: { id: string; title: string; createdAt: string; actionRequests: { name: string }[] }[] }).interrupts.find(
      (i) => i.title === title && i.createdAt >= since,
    );
    if (found) {
      for (const action of found.actionRequests) await decide(found.id, action.name);
      return found.id;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no open interrupt titled ${title} appeared`);
}

describe('the npm package', () => {
  let project: string;
  let packDir: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'interlock-sdk-ts-project-'));
    packDir = mkdtempSync(join(tmpdir(), 'interlock-sdk-ts-pack-'));
  });
  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(packDir, { recursive: true, force: true });
  });

  it('packs only the build, installs into a clean project and runs the README quick start', async () => {
    run(bin('tsup'), ['--config', join(sdkDir, 'tsup.config.ts')], root);
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packDir], sdkDir)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining(['CHANGELOG.md', 'README.md', 'dist/index.cjs', 'dist/index.d.cts', 'dist/index.d.ts', 'dist/index.js', 'package.json']),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['README.md', 'CHANGELOG.md', 'package.json'].includes(f))).toEqual([]);

    // Reproducible: building and packing again gives the same bytes.
    const again = mkdtempSync(join(tmpdir(), 'interlock-sdk-ts-pack-again-'));
    try {
      run(bin('tsup'), ['--config', join(sdkDir, 'tsup.config.ts')], root);
      const [repacked] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', again], sdkDir)) as { integrity: string }[];
      expect(repacked.integrity).toBe((packed as unknown as { integrity: string }).integrity);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }

    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'quick-start-check', private: true, type: 'module' }));
    // Zero runtime dependencies: nothing to fetch.
    run('npm', ['install', join(packDir, packed.filename), '--no-audit', '--no-fund', '--offline'], project);

    // CommonJS consumers get the same API.
    const cjs = run(process.execPath, ['-e', "const s = require('@interlock/sdk'); console.log(typeof s.Interlock, typeof s.PlanRequiredError, s.VERSION)"], project);
    expect(cjs.trim()).toBe(`function function ${JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')).version}`);

    // The quick start exactly as the README prints it, then one line to show what it got.
    const quickStart = readmeQuickStart();
    const report = "\nconsole.log(JSON.stringify({ status: answered.status, decisions: answered.decisions.map((d) => [d.actionName, d.decision]), id: interrupt.id }));\n";
    writeFileSync(join(project, 'quick-start.mjs'), quickStart + report);
    // It type-checks against the published declarations as TypeScript, too.
    writeFileSync(join(project, 'quick-start.ts'), quickStart + report);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: [],
      skipLibCheck: false,
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['quick-start.ts'] }));
    run(bin('tsc'), ['-p', 'tsconfig.json'], project);

    const since = new Date(Date.now() - 1000).toISOString();
    const child = spawn(process.execPath, ['quick-start.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH, INTERLOCK_API_KEY: live.apiKey, INTERLOCK_BASE_URL: live.baseURL },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const decidedId = await approveWhenOpened('Send the refund?', since);
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual({ status: 'answered', decisions: [['refund', 'approve']], id: decidedId });
  });
});
