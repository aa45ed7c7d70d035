#!/usr/bin/env node
// Builds the packages the service serves at /downloads/… (issue 32 §4): nothing is published to
// a registry, so agents install from the Interlock they use.
//
//   node tools/scripts/build-downloads.mjs [--out DIR] [--skip-build] [--require-python]
//
// Into DIR (default dist/downloads, the service's DOWNLOADS_DIR default):
//   interlock-sdk-<version>.tgz           @interlock/sdk      (tsup, then npm pack)
//   interlock-mcp-<version>.tgz           @interlock/mcp      (tsup, then npm pack; the SDK is bundled in)
//   interlock_sdk-<version>-py3-none-any.whl   interlock-sdk (hatchling, pinned, in tmp/downloads-venv)
//   manifest.json                         {packages: [{name, kind, version, file, sha256, size}]}
// --skip-build packs the dist/ folders as they are (npm start builds them through nx first).
// Without a Python 3.9+ (or when its build fails) the wheel is left out with a warning, unless
// --require-python.
// Archives are reproducible: the same sources give the same bytes (SOURCE_DATE_EPOCH for the wheel).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HATCHLING = 'hatchling==1.33.0';
const SOURCE_DATE_EPOCH = '1767225600';

function log(message) {
  console.error(`[downloads] ${message}`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, {
    cwd: root,
    encoding: 'utf8',
    ...options,
    env: { ...process.env, ...options.env },
  });
  if (result.error || result.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} failed (${result.error?.message ?? result.status}):\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return result.stdout;
}

function parseArgs(argv) {
  const options = { out: join(root, 'dist', 'downloads'), skipBuild: false, requirePython: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') options.out = isAbsolute(argv[i + 1]) ? argv[++i] : resolve(argv[++i]);
    else if (argv[i] === '--skip-build') options.skipBuild = true;
    else if (argv[i] === '--require-python') options.requirePython = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

/** `npm pack` of a workspace package into `out`; returns the file name. */
function npmPackage(dir, config, options, out) {
  if (!options.skipBuild)
    run(join(root, 'node_modules', '.bin', 'tsup'), ['--config', join(root, dir, config)]);
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', out], { cwd: join(root, dir) }),
  );
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  return { name: manifest.name, kind: 'npm', version: manifest.version, file: packed.filename };
}

/** A Python (3.9+) for the build venv, or undefined. */
function findPython() {
  for (const candidate of [process.env.PYTHON, 'python3', 'python'].filter(Boolean)) {
    const check = spawnSync(candidate, [
      '-c',
      'import sys, venv; sys.exit(0 if sys.version_info >= (3, 9) else 1)',
    ]);
    if (!check.error && check.status === 0) return candidate;
  }
  return undefined;
}

/** The wheel, built by the pinned hatchling in its own small venv (tmp/downloads-venv). */
function pythonWheel(out, requirePython) {
  const python = findPython();
  if (python === undefined) {
    const message = 'no Python 3.9+ with venv found (set PYTHON): the Python wheel is not built';
    if (requirePython) throw new Error(message);
    log(message);
    return undefined;
  }
  const venv = join(root, 'tmp', 'downloads-venv');
  const bin = join(venv, process.platform === 'win32' ? 'Scripts' : 'bin');
  const stamp = join(venv, '.hatchling');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== HATCHLING) {
    rmSync(venv, { recursive: true, force: true });
    run(python, ['-m', 'venv', venv]);
    run(join(bin, 'python'), [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      HATCHLING,
    ]);
    writeFileSync(stamp, HATCHLING);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'interlock-wheel-'));
  try {
    run(join(bin, 'hatchling'), ['build', '-t', 'wheel', '-d', scratch], {
      cwd: join(root, 'libs', 'sdk-python'),
      env: { SOURCE_DATE_EPOCH },
    });
    const [file] = readdirSync(scratch).filter((f) => f.endsWith('.whl'));
    renameSync(join(scratch, file), join(out, file));
    const version = /^interlock_sdk-([^-]+)-/.exec(file)?.[1];
    return { name: 'interlock-sdk', kind: 'python', version, file };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The wheel; without --require-python a failure (no registry for hatchling, say) leaves it out with a warning. */
function pythonWheelOrWarn(out, requirePython) {
  try {
    return pythonWheel(out, requirePython);
  } catch (error) {
    if (requirePython) throw error;
    log(`the Python wheel is not built: ${error.message}`);
    return undefined;
  }
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  // A fresh folder each time: the manifest lists exactly what this build made.
  const staging = `${options.out}.building`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const packages = [
    npmPackage('libs/sdk-ts', 'tsup.config.ts', options, staging),
    npmPackage('libs/mcp', 'tsup.config.ts', options, staging),
    pythonWheelOrWarn(staging, options.requirePython),
  ].filter(Boolean);
  for (const p of packages) {
    const bytes = readFileSync(join(staging, p.file));
    p.sha256 = createHash('sha256').update(bytes).digest('hex');
    p.size = statSync(join(staging, p.file)).size;
    log(`${p.file} (${p.size} bytes, sha256 ${p.sha256.slice(0, 12)}…)`);
  }
  writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify({ packages }, null, 2)}\n`);
  rmSync(options.out, { recursive: true, force: true });
  renameSync(staging, options.out);
  log(`wrote ${options.out}`);
}

try {
  main();
} catch (error) {
  console.error(`[downloads] ${error.message}`);
  process.exit(1);
}
