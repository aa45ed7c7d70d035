#!/usr/bin/env node
// The Python SDK's checks (libs/sdk-python): creates or reuses its virtual environment at
// libs/sdk-python/.venv, installs the pinned dev tools and the SDK (editable) when the
// requirements changed, then runs the requested steps.
//
//   node tools/scripts/python-sdk.mjs                  setup, lint, typecheck, test
//   node tools/scripts/python-sdk.mjs lint typecheck   only those
//   node tools/scripts/python-sdk.mjs unasync          regenerate the sync resources (src/interlock/
//                                                      resources/_sync) from the async ones
//   node tools/scripts/python-sdk.mjs test -m integration -k audit   extra args go to pytest
//
// `test` runs the unit tests (pyproject's addopts deselect the `integration` marker); the
// integration tests need a live service: nx run sdk-python:e2e runs them through
// tools/scripts/with-service.mjs.
//
// A framework whose pins clash with the dev tools' gets an environment of its own:
//
//   node tools/scripts/python-sdk.mjs --venv crewai setup            create it (or find it cached)
//   node tools/scripts/python-sdk.mjs --venv crewai typecheck test   mypy and pytest of its files
//
//   node tools/scripts/python-sdk.mjs --venv codegen exec datamodel-codegen …   one of its programs
//
// (CrewAI pins pydantic 2.12.5; the dev venv has 2.14.3.) The contract's model generator has one
// too (codegen), so the codegen check waits for no pip run once its venv is cached: the dev venv's
// install was most of the time of the checks before `npm test`'s nx run (about 80 s of pip in a
// fresh clone on a quiet machine). Such a venv holds the pinned packages of
// requirements-<name>.txt but not the SDK, which runs from src (PYTHONPATH): so one venv serves every
// checkout of the same requirements, and it is kept outside the checkout, in
// $INTERLOCK_VENV_CACHE (default ~/.cache/interlock/venvs) under a name with the hash of the
// requirements and the interpreter. Its `test` runs every test of its folder (integration ones too:
// run it through with-service.mjs), its `typecheck` mypy --strict on its bridge and tests.
//
// Steps: setup (venv + install), lint (ruff check + ruff format --check + the sync twin is current), typecheck
// (mypy --strict), test (pytest). Every requested step runs; the exit code is non-zero if any
// failed. PYTHON picks the interpreter that creates the venv (default python3, ≥ 3.9). With
// TEST_RESULTS_DIR set (as `npm test` does), pytest's counts are written there for the summary.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { junitResults } from './test-results.cjs';

const root = new URL('../..', import.meta.url).pathname;
const sdkDir = join(root, 'libs', 'sdk-python');
const venvDir = join(sdkDir, '.venv');
const binDir = join(venvDir, process.platform === 'win32' ? 'Scripts' : 'bin');
const venvPython = join(binDir, process.platform === 'win32' ? 'python.exe' : 'python');
const stampFile = join(venvDir, '.interlock-requirements.sha256');
const lockDir = join(sdkDir, '.venv.lock');
const STEPS = ['setup', 'lint', 'typecheck', 'test'];
// Run only when asked: regenerates the sync resources from the async ones (lint checks them).
const ON_REQUEST = ['unasync'];

function log(message) {
  console.log(`[python-sdk] ${message}`);
}

/** Runs a command with inherited output; returns its exit code. */
function run(cmd, args, options = {}) {
  log(`$ ${[cmd, ...args].join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: sdkDir, stdio: 'inherit', ...options });
  if (result.error) {
    console.error(`[python-sdk] could not run ${cmd}: ${result.error.message}`);
    return 127;
  }
  return result.status ?? 1;
}

/** The environments besides .venv: their requirements, and the files their checks cover. */
const EXTRA_VENVS = {
  crewai: {
    requirements: 'requirements-crewai.txt',
    bridge: 'src/interlock/crewai.py',
    tests: 'tests/crewai',
  },
  // The Python models' generator (tools/scripts/codegen.mjs): only `setup` and `exec`.
  codegen: { requirements: 'requirements-codegen.txt' },
};

function parseArgs(argv) {
  const steps = [];
  let venv;
  let i = 0;
  if (argv[0] === '--venv') {
    venv = argv[1];
    if (!EXTRA_VENVS[venv]) {
      console.error(`[python-sdk] unknown --venv ${venv} (known: ${Object.keys(EXTRA_VENVS)})`);
      process.exit(2);
    }
    if (argv[2] === 'exec') return { steps: ['exec'], extra: argv.slice(3), venv };
    i = 2;
  }
  while (i < argv.length && [...STEPS, ...ON_REQUEST].includes(argv[i])) steps.push(argv[i++]);
  const extra = argv.slice(i);
  if (extra[0] === '--') extra.shift();
  const all = venv ? ['setup', 'typecheck', 'test'] : STEPS;
  return { steps: steps.length > 0 ? steps : all, extra, venv };
}

/** The hash of everything that decides what is installed in the venv. */
function requirementsHash() {
  const hash = createHash('sha256');
  for (const file of ['requirements-dev.txt', 'pyproject.toml']) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(sdkDir, file)));
  }
  return hash.digest('hex');
}

/** Serialises venv creation between concurrent runs (Nx runs targets in parallel). */
function withLock(fn) {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock older than 15 minutes was left by a run that died.
      if (Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs > 15 * 60_000) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function setup() {
  return withLock(() => {
    if (!existsSync(venvPython)) {
      const python = process.env.PYTHON || 'python3';
      const check = spawnSync(python, [
        '-c',
        'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)',
      ]);
      if (check.error || check.status !== 0) {
        console.error(`[python-sdk] ${python} (3.9 or later) is needed to create ${venvDir}.`);
        return 1;
      }
      rmSync(venvDir, { recursive: true, force: true });
      const code = run(python, ['-m', 'venv', venvDir]);
      if (code !== 0) {
        console.error(
          '[python-sdk] creating the venv failed (on Debian: apt-get install python3-venv).',
        );
        return code;
      }
    }
    const hash = requirementsHash();
    if (existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === hash) {
      log('venv up to date');
      return 0;
    }
    const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' };
    const code = run(
      venvPython,
      ['-m', 'pip', 'install', '--quiet', '-r', 'requirements-dev.txt', '-e', '.'],
      { env },
    );
    if (code !== 0) return code;
    writeFileSync(stampFile, `${hash}\n`);
    return 0;
  });
}

function lint() {
  const ruff = join(binDir, 'ruff');
  const check = run(ruff, ['check', 'src', 'tests', 'scripts']);
  const format = run(ruff, ['format', '--check', 'src', 'tests', 'scripts']);
  // The contract test's schemathesis hooks run in this venv: held to the SDK's rules too.
  const hooks = ['--config', 'pyproject.toml', '../../tools/contract'];
  const hooksCheck = run(ruff, ['check', ...hooks]);
  const hooksFormat = run(ruff, ['format', '--check', ...hooks]);
  // The sync resources are generated from the async ones (scripts/gen_sync.py, unasync): current?
  const twins = run(venvPython, ['scripts/gen_sync.py', '--check']);
  return [check, format, hooksCheck, hooksFormat, twins].find((code) => code !== 0) ?? 0;
}

/** Regenerates resources/_sync from resources/_async (unasync). */
function unasync() {
  return run(venvPython, ['scripts/gen_sync.py']);
}

function typecheck() {
  return run(join(binDir, 'mypy'), ['--strict', 'src', 'tests']);
}

/** pytest, with its counts written for `npm test`'s closing line when TEST_RESULTS_DIR is set. */
function test(extra, python = venvPython, env = process.env) {
  const resultsDir = process.env.TEST_RESULTS_DIR;
  const scratch = resultsDir ? mkdtempSync(join(tmpdir(), 'python-sdk-')) : undefined;
  const junit = scratch ? join(scratch, 'junit.xml') : undefined;
  const args = ['-m', 'pytest', ...(junit ? [`--junitxml=${junit}`] : []), ...extra];
  const code = run(python, args, { env });
  if (junit && existsSync(junit)) {
    const counts = junitResults(readFileSync(junit, 'utf8'), `pytest ${extra.join(' ')}`.trim());
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      join(resultsDir, `pytest-${process.pid}-${Date.now()}.json`),
      JSON.stringify(counts),
    );
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  // pytest's exit 5 ("no tests collected") stays a failure: a selection that matches nothing
  // (say, `-m integration` after a marker was renamed) must not pass quietly.
  return code;
}

/** Whether a process with this pid is running (on this machine). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Creates (once) the cached venv of EXTRA_VENVS[name] and returns its directory. Runs that need it
 * at the same time (npm test starts it early, in the background; the e2e target then asks for it)
 * wait for the one building it: the lock names the builder's pid, and a lock whose builder is gone
 * is taken over. A venv is usable once its `.complete` marker is written, after pip succeeded.
 */
function setupExtra(name) {
  const { requirements } = EXTRA_VENVS[name];
  const python = process.env.PYTHON || 'python3';
  const version = spawnSync(python, ['-c', 'import sys; print(sys.version, sys.executable)'], {
    encoding: 'utf8',
  });
  if (version.error || version.status !== 0) {
    console.error(`[python-sdk] ${python} is needed to create the ${name} venv.`);
    return { code: 1 };
  }
  const hash = createHash('sha256')
    .update(readFileSync(join(sdkDir, requirements)))
    .update(`\0${version.stdout}`)
    .digest('hex')
    .slice(0, 16);
  const cache =
    process.env.INTERLOCK_VENV_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'interlock', 'venvs');
  const dir = join(cache, `${name}-${hash}`);
  const complete = join(dir, '.complete');
  const lock = `${dir}.lock`;
  mkdirSync(cache, { recursive: true });
  const started = Date.now();
  let told = false;
  for (;;) {
    if (existsSync(complete)) {
      log(`${name} venv ready: ${dir}`);
      return { code: 0, dir };
    }
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), `${process.pid}\n`);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let pid = 0;
      try {
        pid = Number(readFileSync(join(lock, 'pid'), 'utf8').trim());
      } catch {
        // Not written yet, or the lock was just released: look again.
      }
      // A lock without a pid yet is a builder between its two calls; one whose builder is gone
      // (killed mid-install) is taken over.
      if (pid > 0 && !alive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > 30 * 60_000) {
        console.error(`[python-sdk] waited 30 minutes for ${lock} (pid ${pid}).`);
        return { code: 1 };
      }
      if (!told) log(`waiting for the ${name} venv (being built by process ${pid})`);
      told = true;
      sleepMs(1000);
    }
  }
  try {
    if (existsSync(complete)) return { code: 0, dir };
    const began = Date.now();
    rmSync(dir, { recursive: true, force: true });
    let code = run(python, ['-m', 'venv', dir]);
    if (code !== 0) return { code };
    const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' };
    const pip = join(dir, 'bin', 'python');
    code = run(pip, ['-m', 'pip', 'install', '--quiet', '-r', requirements], { env });
    if (code !== 0) return { code };
    writeFileSync(complete, `${new Date().toISOString()}\n`);
    log(`${name} venv built in ${Math.round((Date.now() - began) / 1000)} s: ${dir}`);
    return { code: 0, dir };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The files of an extra venv's checks: its bridge and every .py of its test folder. */
function extraFiles(name) {
  const { bridge, tests } = EXTRA_VENVS[name];
  const testFiles = readdirSync(join(sdkDir, tests))
    .filter((f) => f.endsWith('.py'))
    .map((f) => join(tests, f));
  return [bridge, ...testFiles];
}

/** setup, typecheck and test in an extra venv (the SDK itself from src). */
function mainExtra(name, steps, extra) {
  const { code: setupCode, dir } = setupExtra(name);
  if (setupCode !== 0) {
    console.error(`[python-sdk] ${name} venv setup FAILED`);
    process.exit(setupCode);
  }
  if (steps[0] === 'exec') {
    // One of the venv's programs, its arguments and exit code passed through.
    const [program, ...args] = extra;
    if (program === undefined || program.includes('/')) {
      console.error('[python-sdk] exec: name a program of the venv (exec <program> [args…])');
      process.exit(2);
    }
    process.exit(run(join(dir, 'bin', program), args, { cwd: root }));
  }
  if (steps.some((step) => step !== 'setup') && EXTRA_VENVS[name].tests === undefined) {
    console.error(`[python-sdk] --venv ${name} has only setup and exec`);
    process.exit(2);
  }
  const python = join(dir, 'bin', 'python');
  const env = { ...process.env, PYTHONPATH: join(sdkDir, 'src') };
  const failed = [];
  for (const step of steps) {
    let code = 0;
    if (step === 'typecheck') {
      // Files named one by one: pyproject's mypy `exclude` keeps them out of the dev venv's run.
      const cacheDir = join(dir, '.mypy_cache');
      code = run(python, ['-m', 'mypy', '--strict', '--cache-dir', cacheDir, ...extraFiles(name)], {
        env,
      });
    } else if (step === 'test') {
      // -m '' selects every test, integration ones included (pyproject's addopts leave them out).
      code = test([EXTRA_VENVS[name].tests, '-m', '', ...extra], python, env);
    } else if (step !== 'setup') {
      console.error(`[python-sdk] ${step} does not apply to --venv ${name}`);
      code = 2;
    }
    if (code !== 0) failed.push(step);
  }
  log(failed.length === 0 ? `${name}: ${steps.join(', ')}: passed` : `${name} FAILED: ${failed}`);
  process.exit(failed.length === 0 ? 0 : 1);
}

function main() {
  const { steps, extra, venv } = parseArgs(process.argv.slice(2));
  if (venv) mainExtra(venv, steps, extra);
  // Every check needs the venv; set it up first even when not asked by name.
  const setupCode = setup();
  if (setupCode !== 0) {
    console.error('[python-sdk] setup FAILED');
    process.exit(setupCode);
  }
  const failed = [];
  for (const step of steps) {
    if (step === 'setup') continue;
    const code =
      step === 'lint'
        ? lint()
        : step === 'typecheck'
          ? typecheck()
          : step === 'unasync'
            ? unasync()
            : test(extra);
    if (code !== 0) failed.push(step);
  }
  const ran = steps.filter((s) => s !== 'setup');
  if (ran.length > 0)
    log(failed.length === 0 ? `${ran.join(', ')}: passed` : `FAILED: ${failed.join(', ')}`);
  process.exit(failed.length === 0 ? 0 : 1);
}

main();
