// The published package as a user gets it: built with tsup, `npm pack` (and `npm publish --dry-run`
// agrees), serve the tarball at the service's /downloads, `npm install` it from that URL into a
// clean project, and run the README's quick start there, verbatim, against the live service. Then
// every example of the SDK's README (and the agent snippets of the repository's README) runs as
// written against the same service, on the same tarball, with the real pinned langchain packages.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { createKey, live, raw, revokeKey, runTag } from './support/live-service';
import { answerWhileRunning, readmeBlocks, type ReadmeBlock } from './support/readme';

const sdkDir = join(__dirname, '..');
const root = join(sdkDir, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

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

/** The first ```ts block of the README's "Quick start" section, as printed there. */
function readmeQuickStart(): string {
  const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('no ```ts block under "## Quick start" in libs/sdk-ts/README.md');
  return match[1];
}

const version = (
  JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as { version: string }
).version;

/** Puts a built package into the service's /downloads folder (with its manifest); returns its URL. */
function serve(file: string, name: string, kind: 'npm' | 'python'): string {
  const dir = process.env['INTERLOCK_TEST_DOWNLOADS_DIR'];
  if (dir === undefined)
    throw new Error(
      'INTERLOCK_TEST_DOWNLOADS_DIR is not set: run through tools/scripts/with-service.mjs',
    );
  const bytes = readFileSync(file);
  const base = basename(file);
  copyFileSync(file, join(dir, base));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ packages: [{ name, kind, version, file: base, sha256, size: bytes.length }] }),
  );
  return `${live.baseURL}/downloads/${base}`;
}

interface Packed {
  filename: string;
  files: { path: string }[];
  integrity: string;
}

let packDir: string;
let packed: Packed;
let tarball: string;

// One tarball for both the package checks and the README examples, of the build that
// `nx run sdk-ts:e2e` made before the tests (its `build` dependency; tsup empties dist/ when it
// builds, so only this file builds again, once, to check that the bytes are reproducible).
beforeAll(() => {
  if (!existsSync(join(sdkDir, 'dist', 'index.js')))
    throw new Error(
      'libs/sdk-ts/dist is not built: run `npx nx run sdk-ts:e2e`, which builds it first',
    );
  packDir = mkdtempSync(join(tmpdir(), 'interlock-sdk-ts-pack-'));
  [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', packDir], sdkDir),
  ) as Packed[];
  tarball = join(packDir, packed.filename);
});
afterAll(() => {
  rmSync(packDir, { recursive: true, force: true });
});

describe('the npm package', () => {
  let project: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'interlock-sdk-ts-project-'));
  });
  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  it('packs only the build, installs into a clean project and runs the README quick start', async () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'CHANGELOG.md',
        'README.md',
        'dist/index.cjs',
        'dist/index.d.cts',
        'dist/index.d.ts',
        'dist/index.js',
        'package.json',
      ]),
    );
    expect(
      files.filter(
        (f) => !f.startsWith('dist/') && !['README.md', 'CHANGELOG.md', 'package.json'].includes(f),
      ),
    ).toEqual([]);

    // Reproducible: building again and packing gives the same bytes.
    const again = mkdtempSync(join(tmpdir(), 'interlock-sdk-ts-pack-again-'));
    try {
      run(bin('tsup'), ['--config', join(sdkDir, 'tsup.config.ts')], root);
      const [repacked] = JSON.parse(
        run('npm', ['pack', '--json', '--pack-destination', again], sdkDir),
      ) as { integrity: string }[];
      expect(repacked.integrity).toBe(packed.integrity);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }

    // The release path: what `npm publish` would upload is exactly this tarball.
    const [wouldPublish] = Object.values(
      JSON.parse(run('npm', ['publish', '--dry-run', '--json'], sdkDir)) as Record<
        string,
        Packed & { id: string }
      >,
    );
    expect([wouldPublish.id, wouldPublish.integrity]).toEqual([
      `@interlock/sdk@${version}`,
      packed.integrity,
    ]);

    // Installed as the dashboard tells people to: from the service's /downloads (issue 32 §4).
    const url = serve(tarball, '@interlock/sdk', 'npm');
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'quick-start-check', private: true, type: 'module' }),
    );
    // Zero runtime dependencies: the tarball is all there is to fetch.
    run('npm', ['install', url, '--no-audit', '--no-fund'], project);
    const installed = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(installed.dependencies['@interlock/sdk']).toBe(url);

    // CommonJS consumers get the same API.
    const cjs = run(
      process.execPath,
      [
        '-e',
        "const s = require('@interlock/sdk'); console.log(typeof s.Interlock, typeof s.PlanRequiredError, s.VERSION)",
      ],
      project,
    );
    expect(cjs.trim()).toBe(`function function ${version}`);

    // The quick start exactly as the README prints it, then one line to show what it got.
    const quickStart = readmeQuickStart();
    const report =
      '\nconsole.log(JSON.stringify({ status: answered.status, decisions: answered.decisions.map((d) => [d.actionName, d.decision]), id: interrupt.id }));\n';
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
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['quick-start.ts'] }),
    );
    run(bin('tsc'), ['-p', 'tsconfig.json'], project);

    // The event loop was blocked above: let it see the kept-alive sockets the service closed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A key of its own, so the human in the loop answers exactly what this run opens.
    const key = await createKey(runTag('quick-start-'));
    try {
      const result = await runExample(join(project, 'quick-start.mjs'), project, key.key);
      expect(result).toMatchObject({ code: 0, stderr: '', decided: 1 });
      const printed = JSON.parse(result.stdout) as { id: string };
      expect(printed).toEqual({
        status: 'answered',
        decisions: [['refund', 'approve']],
        id: expect.any(String),
      });
      const read = await raw('GET', `/api/interrupts/${printed.id}`, {
        headers: { 'x-api-key': key.key },
      });
      expect((read.body as { title: string }).title).toBe('Send the refund?');
    } finally {
      await revokeKey(key.id);
    }
  });
});

interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** How many actions the human in the loop decided while it ran. */
  decided: number;
}

/** Runs a script with `node` and the given key, answering what it asks; killed after 90 s. */
async function runExample(script: string, cwd: string, apiKey: string): Promise<ExampleRun> {
  const child = spawn(process.execPath, [script], {
    cwd,
    env: { PATH: process.env.PATH, INTERLOCK_API_KEY: apiKey, INTERLOCK_BASE_URL: live.baseURL },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const [code, decided] = await Promise.all([exited, answerWhileRunning(apiKey, exited)]);
    return { code, stdout, stderr, decided };
  } finally {
    clearTimeout(timer);
  }
}

const RUNNABLE = new Set(['ts', 'typescript', 'js', 'javascript']);
const readmes = [join(sdkDir, 'README.md'), join(root, 'README.md')];
const blocks = readmes.flatMap((file) =>
  readmeBlocks(file).map((block, index) => ({ ...block, index })),
);
// The SDK README's blocks all run unless marked; the repository README's shell and JSON blocks
// are for operators, so only its TypeScript and JavaScript (the agent snippets) are checked.
const sdkBlocks = blocks.filter((b) => b.file === readmes[0]);
const examples = blocks.filter((b) => RUNNABLE.has(b.lang) && b.skip === undefined);
const label = (b: ReadmeBlock) => `${relative(root, b.file)}:${b.line} (${b.heading})`;
const needsHuman =
  /\.(waitForAnswer|reviewLangGraph|ask)\(|\b(reviewOpenAIAgents|interlockToolApproval|reviewAISDK|reviewMastraToolCall)(<[^>]*>)?\(/;

/** Runs `fn` over `items`, at most `width` at a time; one promise per item, in order. */
function limited<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R>[] {
  const settle: { resolve: (value: R) => void; reject: (error: unknown) => void }[] = [];
  const promises = items.map(
    (_, i) => new Promise<R>((resolve, reject) => (settle[i] = { resolve, reject })),
  );
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      await fn(items[i]).then(settle[i].resolve, settle[i].reject);
    }
  };
  for (let w = 0; w < width; w++) void worker();
  return promises;
}

describe('the README examples, run as written against the live service', () => {
  let project: string;
  const runs = new Map<ReadmeBlock, Promise<ExampleRun>>();
  const script = (b: ReadmeBlock & { index: number }) =>
    `${b.file === readmes[0] ? 'sdk' : 'repo'}-${b.index}.${b.lang.startsWith('t') ? 'mts' : 'mjs'}`;

  // A project inside the repository, so the examples' other imports (langchain,
  // @langchain/langgraph, @langchain/core, zod) resolve to the root's pinned packages, while
  // @interlock/sdk is the packed tarball, unpacked where npm installs it.
  beforeAll(async () => {
    project = join(root, 'tmp', `sdk-ts-readme-${process.pid}`);
    rmSync(project, { recursive: true, force: true });
    mkdirSync(join(project, 'node_modules', '@interlock', 'sdk'), { recursive: true });
    run(
      'tar',
      [
        '-xzf',
        tarball,
        '--strip-components=1',
        '-C',
        join(project, 'node_modules', '@interlock', 'sdk'),
      ],
      root,
    );
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'readme-examples', private: true, type: 'module' }),
    );
    for (const b of examples) writeFileSync(join(project, script(b)), b.code);
    // The TypeScript examples type-check under --strict against the published declarations, then run as compiled.
    const compilerOptions = {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: ['node'],
      skipLibCheck: true,
      outDir: '.',
      rootDir: '.',
    };
    const files = examples.filter((b) => b.lang.startsWith('t')).map(script);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const tsc = spawnSync(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    if (tsc.status !== 0)
      throw new Error(`the README examples do not type-check:\n${tsc.stdout}${tsc.stderr}`);
    // The event loop was blocked above: let it see the kept-alive sockets the service closed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Four at a time (most of an example's time is waiting for the service or the human); each
    // with a key of its own, so the human answers exactly what that example opened.
    const results = limited(examples, 4, async (b) => {
      const key = await createKey(runTag('readme-'));
      try {
        return await runExample(
          join(project, script(b).replace(/\.mts$/, '.mjs')),
          project,
          key.key,
        );
      } finally {
        await revokeKey(key.id);
      }
    });
    examples.forEach((b, i) => {
      runs.set(b, results[i]);
      results[i].catch(() => undefined); // reported by the example's own test
    });
  });
  afterAll(async () => {
    await Promise.allSettled(runs.values());
    rmSync(project, { recursive: true, force: true });
  });

  it('every block of the SDK README runs, except the few marked as not runnable here', () => {
    const unmarked = sdkBlocks
      .filter((b) => !RUNNABLE.has(b.lang) && b.skip === undefined)
      .map(label);
    expect(unmarked).toEqual([]);
    // Named by section, so a new skip is a decision someone makes here.
    expect(
      sdkBlocks
        .filter((b) => b.skip !== undefined)
        .map((b) => label(b).replace(/^.*\((.*)\)$/, '$1')),
    ).toEqual(['Install', 'Webhooks', 'Development']);
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it.each(examples.map((b) => [label(b), b] as const))('%s', async (_label, b) => {
    const result = await runs.get(b);
    expect({ code: result?.code, stderr: result?.stderr }).toEqual({ code: 0, stderr: '' });
    // An example that waits for a human ended because one decided, not for another reason.
    if (needsHuman.test(b.code)) expect(result?.decided).toBeGreaterThan(0);
  });
});
