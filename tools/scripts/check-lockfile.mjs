#!/usr/bin/env node
// Checks that package-lock.json is complete, so `npm ci` works on a clean checkout on any
// platform (the Dockerfile runs it). Run by `npm test`, before anything else.
//
// 1. Offline: every dependency and optional dependency named by a lock entry resolves, by
//    Node's lookup rules, to an entry of the lock. npm drops other platforms' optional packages
//    (`@swc/core-darwin-arm64`, `@rollup/rollup-win32-x64-msvc`…) when it rewrites the lock
//    with a node_modules present (npm/cli#4828, #7961); `npm ci` then refuses the lock.
// 2. `npm ci --dry-run` on a copy of the manifests (package.json files and the lock only, so
//    the real node_modules is never touched): what npm itself says of the lock.
//
// When it fails after a dependency change: delete node_modules, run `npm install` (not
// `--package-lock-only` on top of an existing node_modules), and commit the lock.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The lock entry a package named `name` resolves to from the entry at `from` (Node's lookup). */
function resolveEntry(packages, from, name) {
  let base = from;
  for (;;) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const i = base.lastIndexOf('/node_modules/');
    base = i < 0 ? '' : base.slice(0, i);
  }
}

/** Problems of the lock that can be found without npm: unresolvable dependency names. */
export function lockProblems(lock) {
  const packages = lock.packages ?? {};
  const problems = [];
  for (const [path, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    const needs = [
      ...Object.keys(entry.dependencies ?? {}).map((name) => [name, false]),
      ...Object.keys(entry.optionalDependencies ?? {}).map((name) => [name, true]),
    ];
    for (const [name, optional] of needs) {
      if (entry.peerDependenciesMeta?.[name]?.optional) continue;
      if (resolveEntry(packages, path, name) === undefined) {
        problems.push(
          `${path || '(root)'} needs ${optional ? 'optional ' : ''}${name}: no entry in the lock`,
        );
      }
    }
  }
  return problems;
}

function workspaceManifests(rootManifest) {
  const found = [];
  for (const pattern of rootManifest.workspaces ?? []) {
    if (!pattern.endsWith('/*')) throw new Error(`unsupported workspace pattern ${pattern}`);
    const dir = pattern.slice(0, -2);
    for (const name of readdirSync(join(root, dir))) {
      const manifest = join(dir, name, 'package.json');
      if (existsSync(join(root, manifest))) found.push(manifest);
    }
  }
  return found;
}

function npmCiDryRun(rootManifest) {
  const scratch = mkdtempSync(join(tmpdir(), 'interlock-lock-'));
  try {
    for (const file of ['package.json', 'package-lock.json', ...workspaceManifests(rootManifest)]) {
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      copyFileSync(join(root, file), join(scratch, file));
    }
    const result = spawnSync(
      'npm',
      [
        'ci',
        '--dry-run',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
      ],
      { cwd: scratch, encoding: 'utf8' },
    );
    return { status: result.status ?? 1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function main() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = lockProblems(lock);
  if (problems.length > 0) {
    console.error(`[lockfile] package-lock.json is incomplete (${problems.length}):`);
    for (const problem of problems.slice(0, 40)) console.error(`  - ${problem}`);
    if (problems.length > 40) console.error(`  … and ${problems.length - 40} more`);
    console.error(
      '[lockfile] delete node_modules, run `npm install`, and commit package-lock.json',
    );
    process.exit(1);
  }
  const ci = npmCiDryRun(rootManifest);
  if (ci.status !== 0) {
    // npm appends the whole usage text to EUSAGE; the reasons come before it.
    const lines = ci.output
      .split('\n')
      .filter((l) => /npm (error|ERR)/.test(l) && !/nodedir/.test(l))
      .filter((l) => !/npm error\s*$/.test(l));
    const usage = lines.findIndex((l) => /Clean install a project/.test(l));
    if (usage >= 0) lines.length = usage;
    console.error('[lockfile] `npm ci --dry-run` refuses package-lock.json:');
    for (const line of lines.slice(0, 40)) console.error(`  ${line}`);
    process.exit(1);
  }
  console.log('[lockfile] package-lock.json is complete; `npm ci --dry-run` accepts it');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
