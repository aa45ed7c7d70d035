#!/usr/bin/env node
// `npm test`: every check the repository has — the lock file's completeness (`npm ci` must
// accept it), the contract/codegen drift check, formatting (Prettier), lint,
// type-check, unit and e2e tests (TypeScript and the Python SDK; the API's e2e suite on Fastify,
// the default adapter, and its smoke files and the contract test on Express too) — against a throwaway Postgres
// that this script starts and always stops (or TEST_DATABASE_URL when set). The nx tasks run in
// two lanes (see LANE_GROUPS in lane-groups.cjs). Its closing lines say where the time went: each phase, the nx tasks
// (from NX_PROFILE's traces, tmp/nx-profile-*.json) and the slowest test files (from the runners'
// reports in tmp/test-results).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import templateDatabase from '../../apps/api/test/support/template-database.cjs';
import laneGroups from './lane-groups.cjs';
import { startThrowawayPostgres } from './throwaway-postgres.mjs';

const root = new URL('../..', import.meta.url).pathname;
const resultsDir = join(root, 'tmp', 'test-results');
// Nx's Chrome traces of the run's tasks, one per nx run (chrome://tracing or ui.perfetto.dev open them).
const nxProfile = (name) => join('tmp', `nx-profile-${name}.json`);
const TOP = 15;
const { LANE_GROUPS } = laneGroups;

/**
 * Runs a check with its output held back, so checks run side by side print one after another:
 * its exit code, its output and how long it took.
 */
function runHeld(cmd, args, env) {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? (signal ? 1 : 0),
        output: Buffer.concat(output).toString(),
        ms: Date.now() - start,
      }),
    );
  });
}

function summary() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  const files = [];
  for (const file of readdirSync(resultsDir)) {
    const r = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    failures.push(...(r.failures ?? []));
    files.push(...(r.files ?? []));
  }
  return { passed, failed, skipped, failures, files };
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const clock = (ms) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The traces of the nx runs (tmp/nx-profile-*.json). */
function nxProfiles() {
  const tmp = join(root, 'tmp');
  if (!existsSync(tmp)) return [];
  return readdirSync(tmp)
    .filter((f) => /^nx-profile-.*\.json$/.test(f))
    .map((f) => join(tmp, f));
}

/** The nx tasks of the profiles: id, start and end (ms since the epoch), status. */
function nxTasks() {
  return nxProfiles().flatMap((path) =>
    JSON.parse(readFileSync(path, 'utf8'))
      .filter((e) => e.ph === 'X')
      // The lanes find the first run's builds in the cache: checks, not tasks of their own.
      .filter((e) => !(/cache/.test(e.args?.status ?? '') && /:build$/.test(e.name)))
      .map((e) => ({
        id: e.name,
        start: e.ts / 1000,
        end: (e.ts + e.dur) / 1000,
        status: e.args?.status,
      })),
  );
}

/** Where the time went: the phases, the longest nx tasks (when each ran) and the slowest test files. */
function timeReport(phases, files, loadAtStart) {
  const lines = ['', '[test] where the time went'];
  const [first] = phases;
  const total = phases.reduce((sum, p) => sum + p.ms, 0);
  const load = (l) => l.map((x) => x.toFixed(1)).join(' ');
  lines.push(
    `  wall ${clock(total)}; load average at the start ${load(loadAtStart)}, at the end ${load(loadavg())}`,
  );
  lines.push(`  phases: ${phases.map((p) => `${p.name} ${seconds(p.ms)}`).join(', ')}`);
  if (lanesTaken.some((taken) => taken.length > 0)) {
    lines.push("  lanes, the groups each took (start–end on the run's clock):");
    for (const [i, taken] of lanesTaken.entries()) {
      const groups = taken.map(
        (g) =>
          `${g.name} ${clock(g.start - first.start)}–${clock(g.end - first.start)}${g.code === 0 ? '' : ' (failed)'}`,
      );
      lines.push(`    ${i + 1}: ${groups.join(', ')}`);
    }
  }
  const tasks = nxTasks();
  if (tasks.length > 0) {
    const t0 = first.start;
    lines.push(
      `  nx tasks, longest ${Math.min(TOP, tasks.length)} of ${tasks.length} (start–end on the run's clock):`,
    );
    for (const t of [...tasks].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, TOP))
      lines.push(
        `    ${seconds(t.end - t.start).padStart(7)}  ${clock(t.start - t0)}–${clock(t.end - t0)}  ${t.id}${t.status === 'success' || t.status === undefined ? '' : ` (${t.status})`}`,
      );
    lines.push(`    (the traces: ${nxProfile('*')})`);
  }
  if (files.length > 0) {
    lines.push(`  slowest test files, ${Math.min(TOP, files.length)} of ${files.length}:`);
    for (const f of [...files].sort((a, b) => b.ms - a.ms).slice(0, TOP))
      lines.push(`    ${seconds(f.ms).padStart(7)}  ${f.where}`);
  }
  return lines.join('\n');
}

/**
 * The checks before the nx tasks, side by side (none writes what another reads: the lock file
 * check works on a copy of the manifests; codegen rewrites the generated folders and dist/, which
 * Prettier leaves out): `npm ci` on a clean checkout (the Dockerfile's) must accept the committed
 * lock file; the committed contract and generated SDK code must be what the code generates now;
 * the tree is formatted as .prettierrc says (what it leaves out: .prettierignore). Each one's
 * output is printed whole when all are done.
 */
async function runChecks(env) {
  const checks = [
    ['lock file', process.execPath, ['tools/scripts/check-lockfile.mjs']],
    ['codegen', process.execPath, ['tools/scripts/codegen.mjs', '--check']],
    ['prettier', 'npx', ['prettier', '--check', '.', '--log-level=warn']],
  ];
  const results = await Promise.all(checks.map(([, cmd, args]) => runHeld(cmd, args, env)));
  for (const [i, [name]] of checks.entries()) {
    const { code, output, ms } = results[i];
    console.log(`[test] ${name} check: ${code === 0 ? 'passed' : 'FAILED'} (${seconds(ms)})`);
    if (output.trim() !== '') console.log(output.trimEnd());
  }
  const failed = checks.filter((_, i) => results[i].code !== 0).map(([name]) => name);
  if (failed.includes('prettier'))
    console.error('[test] `npx prettier --write .` formats the tree');
  return {
    code: failed.length === 0 ? 0 : 1,
    failed,
    phase: `checks side by side (${checks.map(([name], i) => `${name} ${seconds(results[i].ms)}`).join(', ')})`,
  };
}

/**
 * One nx run, its output passed on a whole line at a time (two run side by side), its trace in
 * tmp/nx-profile-<name>.json. Resolves to its exit code.
 */
function nx(name, args, env, parallel = 1) {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['nx', 'run-many', ...args, '--outputStyle=static', `--parallel=${parallel}`],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...env, NX_PROFILE: nxProfile(name) },
      },
    );
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      from.setEncoding('utf8');
      from.on('data', (text) => {
        const end = (rest + text).lastIndexOf('\n') + 1;
        if (end > 0) to.write((rest + text).slice(0, end));
        rest = (rest + text).slice(end);
      });
      from.on('end', () => rest !== '' && to.write(`${rest}\n`));
    }
    child.on('error', (error) => {
      console.error(`[test] nx ${name}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Each lane's groups, in the order taken (start and end in ms since the epoch), for the report. */
const lanesTaken = [[], []];

/**
 * The nx tasks: first the builds every later run finds done, then
 * LANE_GROUPS on two lanes, one nx run of one task at a time each (the machine has two cores;
 * Playwright and Jest run two workers of their own). Every group runs even when one fails.
 */
async function runLanes(env) {
  const built = await nx('builds', ['-t', 'build'], env, 2);
  if (built !== 0) return built;
  const queue = [...LANE_GROUPS];
  const codes = [];
  const lane = async (taken) => {
    for (let group = queue.shift(); group !== undefined; group = queue.shift()) {
      console.log(`[test] nx: ${group.name} (${group.args.join(' ')})`);
      const start = Date.now();
      const code = await nx(group.name, group.args, env);
      taken.push({ name: group.name, start, end: Date.now(), code });
      codes.push(code);
    }
  };
  await Promise.all(lanesTaken.map(lane));
  return codes.find((c) => c !== 0) ?? 0;
}

/**
 * The one Python interpreter of the run, as an absolute path (PYTHON when set): the CrewAI venv is
 * cached under a hash of its interpreter, and `python3` is not the same program everywhere in the
 * run — `npx` puts Node's own directory (/usr/bin) first on the PATH of the nx tasks, where `npm
 * test` does not, so with pyenv the background build made a venv for pyenv's Python that
 * sdk-python:e2e-crewai (system Python) never used, and built its own at the end of the run
 * (70–191 s of the last task in the fresh-clone runs B–H). Unresolvable: left to each script.
 */
function pythonOfTheRun() {
  const python = process.env.PYTHON || 'python3';
  const found = spawnSync(python, ['-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
  });
  const path = found.status === 0 ? found.stdout.trim() : '';
  return path === '' ? process.env.PYTHON : path;
}

async function main() {
  // `npm test -- --checks`: only the checks before the nx tasks (no database, no venv).
  if (process.argv.includes('--checks')) {
    const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
    const { code, phase } = await runChecks(env);
    console.log(`[test] ${phase}: ${code === 0 ? 'passed' : 'FAILED'}`);
    process.exit(code);
  }
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });
  for (const path of nxProfiles()) rmSync(path, { force: true });
  const loadAtStart = loadavg();
  const phases = [];
  let phaseStart = Date.now();
  const phase = (name) => {
    const now = Date.now();
    phases.push({ name, start: phaseStart, ms: now - phaseStart });
    phaseStart = now;
  };

  let pg;
  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) {
    pg = await startThrowawayPostgres();
    databaseUrl = pg.url;
    console.log(`[test] throwaway Postgres at ${databaseUrl}`);
  }
  phase('postgres');
  // One migrated template database for the whole run, copied for the API's e2e files and for every
  // service with-service.mjs starts (the first that needs it migrates it), dropped at the end.
  const template = templateDatabase.nameTemplate();
  const stop = async () => {
    await templateDatabase.dropTemplate(databaseUrl, template).catch((error) => {
      console.error(`[test] dropping the template database ${template}: ${error.message}`);
    });
    pg?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      void stop().finally(() => process.exit(130));
    });
  }

  const env = {
    ...process.env,
    PYTHON: pythonOfTheRun(),
    TEST_DATABASE_URL: databaseUrl,
    TEST_RESULTS_DIR: resultsDir,
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
    FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR,
  };
  // The Python venvs are built in the background from the start, beside the checks below: the
  // Python SDK's dev venv (libs/sdk-python/.venv, about 80 s of pip in a fresh clone on a quiet
  // machine; the contract test and the sdk-python tasks wait for it through its lock), and the
  // CrewAI bridge's (its own pins; about 1 GB of pip, minutes the first time, then cached outside
  // the checkout: tools/scripts/python-sdk.mjs), which sdk-python:e2e-crewai waits for (and builds
  // itself if this failed). The codegen check needs neither (its generator has a venv of its own).
  const venvBuilds = [
    { what: 'the Python SDK', args: ['setup'], log: 'sdk-python-venv.log', stop: false },
    { what: 'the CrewAI', args: ['--venv', 'crewai', 'setup'], log: 'crewai-venv.log', stop: true },
  ].map(({ what, args, log, stop }) => {
    const path = join(root, 'tmp', log);
    const fd = openSync(path, 'w');
    const child = spawn(process.execPath, ['tools/scripts/python-sdk.mjs', ...args], {
      cwd: root,
      stdio: ['ignore', fd, fd],
      env,
    });
    closeSync(fd);
    const done = new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    return { what, path, stop, child, done };
  });
  let code = 1;
  try {
    const checked = await runChecks(env);
    phase(checked.phase);
    code = checked.code;
    if (code !== 0) throw new Error(`${checked.failed.join(', ')} check failed`);
    code = await runLanes(env);
    phase('nx');
  } catch (error) {
    console.error(`[test] ${error.message}`);
  } finally {
    await stop();
    for (const build of venvBuilds) {
      // Still building only when the run ended before it was needed (an early failure): the CrewAI
      // one is stopped (its lock names its builder, so the next run takes it over); the dev venv's
      // install is let finish, as its lock would otherwise hold the next run up for 15 minutes.
      if (build.child.exitCode === null && build.stop) build.child.kill('SIGTERM');
      const exit = await build.done;
      if (exit !== 0 && !(build.stop && build.child.signalCode !== null))
        console.error(`[test] ${build.what} venv's build failed: ${build.path}`);
    }
  }
  if (phases.at(-1)?.name !== 'nx') phase('(stopped early)');
  const { passed, failed, skipped, failures, files } = summary();
  console.log(timeReport(phases, files, loadAtStart));
  // Last, so a log that keeps only its tail still says which tests failed and why.
  if (failures.length > 0) {
    console.log(`\n[test] failed tests (${failures.length}):`);
    for (const f of failures.slice(0, 25)) {
      console.log(`\n✕ ${f.where} › ${f.name}`);
      if (f.message) console.log(f.message.replace(/^/gm, '    '));
    }
    if (failures.length > 25) console.log(`\n… and ${failures.length - 25} more`);
  }
  console.log(`\n[test] checks ${code === 0 ? 'passed' : 'FAILED'}`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(code === 0 && failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
