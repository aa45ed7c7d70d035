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
// Steps: setup (venv + install), lint (ruff check + ruff format --check + the sync twin is current), typecheck
// (mypy --strict), test (pytest). Every requested step runs; the exit code is non-zero if any
// failed. PYTHON picks the interpreter that creates the venv (default python3, ≥ 3.9). With
// TEST_RESULTS_DIR set (as `npm test` does), pytest's counts are written there for the summary.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

function parseArgs(argv) {
  const steps = [];
  let i = 0;
  while (i < argv.length && [...STEPS, ...ON_REQUEST].includes(argv[i])) steps.push(argv[i++]);
  const extra = argv.slice(i);
  if (extra[0] === '--') extra.shift();
  return { steps: steps.length > 0 ? steps : STEPS, extra };
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
function test(extra) {
  const resultsDir = process.env.TEST_RESULTS_DIR;
  const scratch = resultsDir ? mkdtempSync(join(tmpdir(), 'python-sdk-')) : undefined;
  const junit = scratch ? join(scratch, 'junit.xml') : undefined;
  const args = ['-m', 'pytest', ...(junit ? [`--junitxml=${junit}`] : []), ...extra];
  const code = run(venvPython, args);
  if (junit && existsSync(junit)) {
    const counts = junitCounts(readFileSync(junit, 'utf8'));
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

function junitCounts(xml) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const match of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(match[1])?.[1] ?? 0);
    const failed = attr('failures') + attr('errors');
    counts.failed += failed;
    counts.skipped += attr('skipped');
    counts.passed += attr('tests') - failed - attr('skipped');
  }
  return counts;
}

function main() {
  const { steps, extra } = parseArgs(process.argv.slice(2));
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
